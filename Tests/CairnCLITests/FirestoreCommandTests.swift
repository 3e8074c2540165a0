import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// `cairn export-firestore` and `cairn import-firestore` as a user runs them: a store goes out
/// as a Firestore export and comes back into another device's store whole, in one checkpoint;
/// and every kind of bad input is one line, exit status 1, and nothing written.
@Suite(.historiesVerified) struct FirestoreCommandTests {
    static let name = "projects/demo/databases/(default)/documents/"

    /// A file holding `documents` (REST documents, as JSON text) in the scratch folder of `cli`.
    static func export(_ cli: CLI, _ documents: String..., named file: String = "export.json") throws -> String {
        let path = cli.scratch(file)
        try #"{"documents": [\#(documents.joined(separator: ", "))]}"#.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func document(_ path: String, _ fields: String = "{}") -> String {
        #"{"name": "\#(name)\#(path)", "fields": \#(fields)}"#
    }

    @Test func aStoreGoesOutAndComesBackWhole() throws {
        let phone = CLI()
        try phone("init", "u1", "--schema", "life-in-uk")
        try phone("put", "users/u1/examAttempts/a1", input: #"{"attemptId":"a1","examId":"practice-1","status":"passed","score":83}"#)
        try phone("put", "users/u1", input: #"{"schemaVersion":1,"createdAt":"2026-11-22T08:00:00Z"}"#)
        try phone(
            "put", "users/u1/books/b1",
            input: #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":1730000000000}}}"#)
        try phone("checkpoint")

        let refused = try phone("export-firestore")
        #expect(refused.status == 1 && refused.stderr.contains("give --project P"), "\(refused.stderr)")
        let file = phone.scratch("progress.json")
        let written = try phone("export-firestore", "--project", "demo", "--output", file)
        #expect(
            written.status == 0 && written.stdout == "Exported 3 documents of projects/demo/databases/(default) to \(file)\n",
            "\(written.stderr)")
        let bytes = try String(contentsOfFile: file, encoding: .utf8)
        #expect(bytes.contains(#""timestampValue": "2026-11-22T08:00:00Z""#) && bytes.contains(#""integerValue": "83""#))
        #expect(try phone("export-firestore", "--project", "demo").stdout == bytes, "stdout and the file are the same bytes")

        let laptop = CLI()
        try laptop("init", "u1", "--schema", "life-in-uk")
        let imported = try laptop("import-firestore", file)
        #expect(imported.status == 0 && imported.stdout.hasPrefix("Imported 3 documents from Firestore: checkpoint "), "\(imported.stderr)")
        #expect(imported.stdout.hasSuffix(", 3 added\n"))
        #expect(
            try laptop.git("u1", "log", "-1", "--format=%s").stdout
                == "Firestore import: 3 documents of projects/demo/databases/(default)\n")
        #expect(try laptop.git("u1", "status", "--porcelain").stdout.isEmpty)
        for path in ["users/u1", "users/u1/examAttempts/a1", "users/u1/books/b1"] {
            #expect(try laptop("get", path).stdout == (try phone("get", path).stdout))
        }
        // Out again without naming the project: the import recorded it. The same file.
        #expect(try laptop("export-firestore").stdout == bytes)
        #expect(try laptop.git("u1", "config", "cairn.firestore.project").stdout == "demo\n")
        // In again: nothing new.
        #expect(
            try laptop("import-firestore", file).stdout == "Nothing to import: the store holds the 3 documents of the file as they are\n")
        let json = try ScriptOutputTests.json(laptop("import-firestore", file, "--json"))
        #expect(ScriptOutputTests.at(json, "checkpoint") == .null && ScriptOutputTests.text(json, "project") == "demo")
        #expect(ScriptOutputTests.count(ScriptOutputTests.at(json, "documents")) == 3)

        // The Node tool's form, and --output never replaces a file.
        let node = try laptop("export-firestore", "--shape", "node")
        #expect(node.status == 0 && node.stdout.hasPrefix("{\n  \"__collections__\": {\n    \"users\": {\n      \"u1\": {\n"))
        try laptop.expectRefused(["export-firestore", "--output", file], saying: "\(file) exists; give a new file (nothing was written)")
    }

    @Test func documentsOfOtherUsersAreLeftOutWhenAsked() throws {
        let cli = CLI()
        try cli.makeStoreToRefuseInto()
        let file = try Self.export(
            cli, Self.document("users/u1/notes/n1", #"{"n": {"integerValue": "1"}}"#), Self.document("users/u2/notes/n1"),
            Self.document("users/u3"))
        try cli.expectRefused(
            ["import-firestore", file],
            saying:
                "users/u2/notes/n1 is a document of user u2, and this is the store of u1: nothing was written; leave them out with --skip-other-users, or import the file into their store: cairn --user u2 import-firestore FILE"
        )
        let skipped = try cli("import-firestore", file, "--skip-other-users")
        #expect(skipped.status == 0, "\(skipped.stderr)")
        #expect(
            skipped.stdout.contains("Imported 1 document from Firestore: checkpoint ")
                && skipped.stdout.hasSuffix("; 2 of other users left out\n"), "\(skipped.stdout)")
        // The pending write of before went into a checkpoint of its own.
        #expect(
            try cli.git("u1", "log", "-2", "--format=%s").stdout.hasPrefix(
                "Firestore import: 1 document of projects/demo/databases/(default), 2 of other users left out\nCheckpoint: 1 added\n"))
        #expect(try cli("get", "users/u1/notes/n1").stdout == "{\n  \"n\": 1\n}\n")
    }

    // MARK: Bad input: one line, status 1, nothing written (files, HEAD, git status).

    @Test func aFileThatIsNotJSON() throws {
        let cli = CLI()
        try cli.makeStoreToRefuseInto()
        let file = cli.scratch("export.json")
        try "documents: none".write(toFile: file, atomically: true, encoding: .utf8)
        try cli.expectRefused(["import-firestore", file], saying: "the file is not JSON (invalid JSON at line 1, column 1")
        try "{\"users\": {}}".write(toFile: file, atomically: true, encoding: .utf8)
        try cli.expectRefused(["import-firestore", file], saying: "the file is JSON but not a Firestore export")
        try cli.expectRefused(["import-firestore", cli.scratch("missing.json")], saying: "cannot read")
    }

    @Test func aPathOutsideUsers() throws {
        let cli = CLI()
        try cli.makeStoreToRefuseInto()
        let file = try Self.export(cli, Self.document("users/u1/notes/n1"), Self.document("books/b1"))
        try cli.expectRefused(
            ["import-firestore", file],
            saying:
                "books/b1 is outside users/{uid}: a store holds one user's documents, users/u1 and below; export only the users collection; nothing was written"
        )
    }

    @Test func aPathOfAnotherUser() throws {
        let cli = CLI()
        try cli.makeStoreToRefuseInto()
        let file = try Self.export(cli, Self.document("users/u1/notes/n1"), Self.document("users/u2/notes/n1"))
        try cli.expectRefused(["import-firestore", file], saying: "users/u2/notes/n1 is a document of user u2")
    }

    @Test func malformedPaths() throws {
        let cli = CLI()
        try cli.makeStoreToRefuseInto()
        let badID = try Self.export(cli, Self.document("users/u1/notes/n1"), Self.document("users/u1/notes/a.json"))
        try cli.expectRefused(["import-firestore", badID], saying: "a.json")
        let notADocument = try Self.export(cli, #"{"name": "projects/demo/databases/(default)/documents/users/u1/notes", "fields": {}}"#)
        try cli.expectRefused(
            ["import-firestore", notADocument], saying: "which is not a document name (projects/P/databases/D/documents/users/UID/…)")
        let twice = try Self.export(cli, Self.document("users/u1/notes/n1"), Self.document("users/u1/notes/n1"))
        try cli.expectRefused(["import-firestore", twice], saying: "users/u1/notes/n1 is in the export twice; keep one")
        let cases = try Self.export(cli, Self.document("users/u1/notes/Note"), Self.document("users/u1/notes/note"))
        try cli.expectRefused(["import-firestore", cases], saying: "differ only in case or accents")
    }

    @Test func aDocumentItsSchemaRefuses() throws {
        let cli = CLI()
        try cli("init", "u1", "--schema", "life-in-uk")
        try cli("put", "users/u1/books/b1", input: #"{"schemaVersion":1,"bookId":"b1","sections":{}}"#)
        try cli("checkpoint")
        let file = try Self.export(
            cli,
            Self.document(
                "users/u1/books/b2",
                #"{"schemaVersion": {"integerValue": "1"}, "bookId": {"stringValue": "b2"}, "sections": {"mapValue": {}}}"#),
            Self.document(
                "users/u1/examAttempts/a1",
                #"{"attemptId": {"stringValue": "a1"}, "examId": {"stringValue": "practice-1"}, "status": {"stringValue": "passed"}, "score": {"integerValue": "120"}}"#
            ))
        try cli.expectRefused(
            ["import-firestore", file],
            saying: "users/u1/examAttempts/a1 breaks its schema (exam-attempt.schema.json) at /score: is 120; maximum is 100")
    }

    @Test func anUnknownValueType() throws {
        let cli = CLI()
        try cli.makeStoreToRefuseInto()
        let file = try Self.export(cli, Self.document("users/u1/notes/n1", #"{"at": {"map": {"x": {"dateValue": "2026"}}}}"#))
        try cli.expectRefused(
            ["import-firestore", file],
            saying: "users/u1/notes/n1 at /at: unknown Firestore value type \"map\"; the types are nullValue, booleanValue")
    }

    @Test func valuesJSONCannotHold() throws {
        let cli = CLI()
        try cli.makeStoreToRefuseInto()
        let nan = try Self.export(
            cli, Self.document("users/u1/notes/n1", #"{"ratio": {"mapValue": {"fields": {"x": {"doubleValue": "NaN"}}}}}"#))
        try cli.expectRefused(
            ["import-firestore", nan], saying: "users/u1/notes/n1 at /ratio/x: doubleValue NaN cannot be kept: JSON has no NaN or Infinity")
        let infinity = try Self.export(cli, Self.document("users/u1/notes/n1", #"{"ratio": {"doubleValue": "-Infinity"}}"#))
        try cli.expectRefused(["import-firestore", infinity], saying: "doubleValue -Infinity cannot be kept")
        let huge = try Self.export(cli, Self.document("users/u1/notes/n1", #"{"count": {"integerValue": "9223372036854775808"}}"#))
        try cli.expectRefused(["import-firestore", huge], saying: "integerValue 9223372036854775808 is outside the 64-bit range")
        let time = try Self.export(cli, Self.document("users/u1/notes/n1", #"{"at": {"timestampValue": "2026-02-30T00:00:00Z"}}"#))
        try cli.expectRefused(["import-firestore", time], saying: "is not an RFC 3339 time")
        let elsewhere = try Self.export(
            cli,
            Self.document(
                "users/u1/notes/n1", #"{"ref": {"referenceValue": "projects/other/databases/(default)/documents/users/u1/notes/n2"}}"#))
        try cli.expectRefused(["import-firestore", elsewhere], saying: "names a document of projects/other/databases/(default)")
    }
}
