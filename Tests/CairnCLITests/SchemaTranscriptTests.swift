import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A store created with a schema set checks what it is given, keeps append-only documents
/// as they were written, and fills derived fields.
@Suite(.historiesVerified) struct SchemaTranscriptTests {
    let cli = CLI()

    init() throws {
        try cli("init", "u1", "--schema", "life-in-uk")
    }

    @Test func theSetTravelsWithTheStore() throws {
        let files = try cli.git("u1", "ls-files").stdout
        #expect(files.contains(".cairn/schema/exam-attempt.schema.json"))
        #expect(files.contains(".cairn/schema/book.schema.json"))
        #expect(try cli("get", "users/u1/examAttempts/none").status == 1)
    }

    @Test func aDocumentThatBreaksItsSchemaIsRefusedAndNothingIsWritten() throws {
        let before = try cli.snapshot("u1")
        let result = try cli(
            "put", "users/u1/examAttempts/a1", input: #"{"attemptId":"a1","examId":"practice-1","status":"passed","score":120}"#)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "cairn: users/u1/examAttempts/a1 breaks its schema (exam-attempt.schema.json) at /score: is 120; maximum is 100 (maximum at /properties/score/maximum); nothing was written\n"
        )
        #expect(try cli.snapshot("u1") == before)
    }

    @Test func anAppendOnlyDocumentIsNeverChangedNorDeleted() throws {
        let attempt = #"{"attemptId":"a1","examId":"practice-1","status":"passed","score":83}"#
        #expect(try cli("put", "users/u1/examAttempts/a1", input: attempt).status == 0)
        #expect(try cli("put", "users/u1/examAttempts/a1", input: attempt).status == 0)  // the same again: fine
        let changed = try cli("put", "users/u1/examAttempts/a1", input: attempt.replacingOccurrences(of: "83", with: "90"))
        #expect(changed.status == 1)
        #expect(changed.stderr.contains("is append-only (exam-attempt.schema.json): an existing document is never changed"))
        let deleted = try cli("rm", "users/u1/examAttempts/a1")
        #expect(deleted.status == 1)
        #expect(deleted.stderr.contains("never deleted"))
        #expect(try cli("get", "users/u1/examAttempts/a1").stdout.contains("\"score\": 83"))
    }

    @Test func derivedFieldsAreFilledOnWrite() throws {
        let book =
            #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":5},"s2":{"completed":true,"updatedAt":9},"s3":{"completed":false,"updatedAt":7}},"completedCount":0}"#
        #expect(try cli("put", "users/u1/books/b1", input: book).status == 0)
        let stored = try cli("get", "users/u1/books/b1").stdout
        #expect(stored.contains("\"completedCount\": 2"))
        #expect(stored.contains("\"lastSectionId\": \"s2\""))
    }

    @Test func validateChecksTheWholeStoreOrOneDocument() throws {
        #expect(try cli("put", "users/u1/books/b1", input: #"{"schemaVersion":1,"bookId":"b1","sections":{}}"#).status == 0)
        #expect(try cli("validate").stdout == "All documents match their schemas.\n")
        try #"{"bookId": 7}"#.write(toFile: cli.home + "/u1/users/u1/books/b2.json", atomically: true, encoding: .utf8)
        let whole = try cli("validate")
        #expect(whole.status == 1)
        #expect(whole.stdout.contains("users/u1/books/b2: /bookId: is integer, must be string (type at /properties/bookId/type)"))
        #expect(whole.stderr == "cairn: 1 document is not valid; fix the files (or put them again) and run cairn validate again\n")
        #expect(try cli("validate", "users/u1/books/b1").status == 0)
        #expect(try cli("validate", "users/u1/books/b2").status == 1)
    }

    @Test func anUnknownSetIsRefusedWithTheKnownOnes() throws {
        let result = try cli("init", "u2", "--schema", "no-such-app")
        #expect(result.status == 1)
        #expect(result.stderr.contains("there is no schema set \"no-such-app\" (known: "))
        #expect(result.stderr.contains("life-in-uk"))
        #expect(!FileManager.default.fileExists(atPath: cli.home + "/u2"))
    }
}

/// An installed tool finds the schema sets beside it, in `share/cairn/schema`.
@Suite(.historiesVerified) struct InstalledSchemaSetsTests {
    @Test func anInstalledToolFindsTheSetsInShare() throws {
        let cli = CLI()
        let prefix = cli.scratch("prefix")
        let sets = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("schema").path
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: prefix + "/share/cairn", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.executable, toPath: prefix + "/bin/cairn")
        try FileManager.default.copyItem(atPath: sets, toPath: prefix + "/share/cairn/schema")
        let result = try runProcess(prefix + "/bin/cairn", ["--home", cli.home, "init", "u1", "--schema", "bonfire"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: cli.home + "/u1/.cairn/schema/word-progress.schema.json"))
    }
}
