import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A script reads Cairn through `--json`: one JSON object on stdout, the same story the human
/// output tells, with full ids, ISO 8601 times and documents as JSON values; a failure is
/// one line on stderr and nothing on stdout.
@Suite(.historiesVerified) struct ScriptOutputTests {
    static let book = "users/u1/books/b1"

    /// A book with section `s1` marked `completed` at `stamp`.
    static func book(completed: Bool, stamp: Int64) -> String {
        #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":\#(completed),"updatedAt":\#(stamp)}}}"#
    }

    /// The one JSON value a `--json` command printed; the command must succeed.
    static func json(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> JSONValue {
        #expect(result.status == 0, "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.isEmpty, sourceLocation: sourceLocation)
        let value = try JSONParser().parse(result.stdout)
        #expect(result.stdout == value.canonicalText, "printed in canonical form", sourceLocation: sourceLocation)
        return value
    }

    /// The value at a path of keys (strings) and indexes (integers); nil when there is none.
    static func at(_ value: JSONValue?, _ path: Any...) -> JSONValue? {
        at(value, path: path)
    }

    static func at(_ value: JSONValue?, path: [Any]) -> JSONValue? {
        var current = value
        for step in path {
            switch (current, step) {
            case (.object(let fields)?, let key as String): current = fields[key]
            case (.array(let elements)?, let index as Int): current = elements.indices.contains(index) ? elements[index] : nil
            default: return nil
            }
        }
        return current
    }

    /// The text at a path; nil when there is none or it is not a string.
    static func text(_ value: JSONValue?, _ path: Any...) -> String? {
        if case .string(let text)? = at(value, path: path) { return text }
        return nil
    }

    static func count(_ value: JSONValue?) -> Int? {
        if case .array(let elements)? = value { return elements.count }
        return nil
    }

    static func isFullID(_ text: String?) -> Bool {
        text.map { $0.count == 40 && $0.allSatisfy(\.isHexDigit) } ?? false
    }

    static func isISOTime(_ text: String?) -> Bool {
        text.map { $0.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/) != nil } ?? false
    }

    @Test func statusNamesTheUserTheSetTheHeadTheRemoteAndWhatIsPending() throws {
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("phone")
        try devices.put("phone", Self.book, Self.book(completed: true, stamp: 1_730_100_000_000))

        let before = try Self.json(devices.on("phone", "status", "--json"))
        #expect(Self.text(before, "user") == "u1")
        #expect(Self.text(before, "folder") == devices.store("phone"))
        #expect(Self.text(before, "schemaSet") == "life-in-uk")
        #expect(Self.at(before, "headElsewhere") == .null)
        #expect(Self.text(before, "head", "id") == (try devices.git("phone", "rev-parse", "HEAD")))
        #expect(Self.isISOTime(Self.text(before, "head", "time")))
        #expect(
            Self.at(before, "pending")
                == .array([
                    .object([
                        "path": .string(Self.book), "file": .string(Self.book + ".json"), "kind": .string("added"),
                    ])
                ]))
        #expect(Self.text(before, "remote", "url") == devices.remote())
        #expect(Self.at(before, "remote", "unpushed") == .integer(0))
        #expect(Self.at(before, "remote", "unmerged") == .integer(0))
        #expect(Self.text(before, "remote", "lastSynced") == (try devices.remoteMain()))

        try devices.on("phone", "checkpoint")
        let queued = try Self.json(devices.on("phone", "status", "--json"))
        #expect(Self.at(queued, "pending") == .array([]))
        #expect(Self.at(queued, "remote", "unpushed") == .integer(1))
        #expect(Self.text(queued, "head", "summary") == "Checkpoint: 1 added")

        try devices.sync("phone")
        let synced = try Self.json(devices.on("phone", "status", "--json"))
        #expect(Self.at(synced, "remote", "unpushed") == .integer(0))
        #expect(Self.text(synced, "remote", "lastSynced") == Self.text(synced, "head", "id"))
    }

    @Test func twoDevicesSyncAConflictAndEveryCommandTellsTheMergeTheSameWay() throws {
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("phone")
        try devices.put("phone", Self.book, Self.book(completed: true, stamp: 1_730_000_000_000))
        try devices.sync("phone")
        try devices.clone("tablet")

        // Offline: the phone marks s1 done and reads s2; the tablet later marks s1 not done,
        // and adds an attempt.
        try devices.put(
            "phone", Self.book,
            #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":1730100000000},"s2":{"completed":true,"updatedAt":1730100050000}}}"#
        )
        try devices.put("tablet", Self.book, Self.book(completed: false, stamp: 1_730_200_000_000))
        try devices.put("tablet", "users/u1/examAttempts/a1", #"{"attemptId":"a1","examId":"practice-1","status":"passed","score":83}"#)

        let pushed = try Self.json(devices.on("phone", "sync", "--json"))
        #expect(Self.text(pushed, "integration") == "upToDate")
        #expect(Self.at(pushed, "merge") == .null)
        #expect(Self.at(pushed, "pushed") == .integer(1))
        #expect(Self.isFullID(Self.text(pushed, "checkpoint", "id")))
        #expect(Self.at(pushed, "checkpoint", "changes", 0, "kind") == .string("modified"))
        #expect(Self.text(pushed, "head") == (try devices.remoteMain()))

        let merged = try Self.json(devices.on("tablet", "sync", "--json"))
        let merge = try devices.git("tablet", "rev-parse", "HEAD")
        #expect(Self.text(merged, "integration") == "merged")
        #expect(Self.text(merged, "merge") == merge)
        #expect(Self.text(merged, "head") == merge)
        #expect(Self.at(merged, "pushed") == .integer(2))
        #expect(Self.at(merged, "changed") == .array([.string(Self.book)]))
        #expect(
            Self.at(merged, "checkpoint", "changes")
                == .array([
                    .object(["path": .string(Self.book), "file": .string(Self.book + ".json"), "kind": .string("modified")]),
                    .object([
                        "path": .string("users/u1/examAttempts/a1"), "file": .string("users/u1/examAttempts/a1.json"),
                        "kind": .string("added"),
                    ]),
                ]))
        guard let conflicts = Self.at(merged, "conflicts"), Self.count(conflicts) == 1 else {
            Issue.record("one conflict decided: \(merged.canonicalText)")
            return
        }
        let record = Self.at(conflicts, 0)
        #expect(Self.text(record, "document") == Self.book)
        #expect(Self.text(record, "pointer") == "/sections/s1")
        #expect(Self.at(record, "kept") == .object(["completed": .bool(false), "updatedAt": .integer(1_730_200_000_000)]))
        #expect(Self.at(record, "replaced") == .object(["completed": .bool(true), "updatedAt": .integer(1_730_100_000_000)]))

        let caughtUp = try Self.json(devices.on("phone", "sync", "--json"))
        #expect(Self.text(caughtUp, "integration") == "fastForward")
        #expect(Self.at(caughtUp, "changed") == .array([.string(Self.book), .string("users/u1/examAttempts/a1")]))
        #expect(Self.at(caughtUp, "conflicts") == .array([]))
        #expect(Self.at(caughtUp, "pushed") == .integer(0))
        #expect(Self.at(caughtUp, "checkpoint") == .null)
        #expect(Self.text(caughtUp, "head") == merge)

        // conflicts: the merge with the records the sync printed, on either device.
        let found = try Self.json(devices.on("phone", "conflicts", "--json"))
        #expect(Self.count(Self.at(found, "merges")) == 1)
        #expect(Self.text(found, "merges", 0, "checkpoint", "id") == merge)
        #expect(Self.count(Self.at(found, "merges", 0, "checkpoint", "parents")) == 2)
        #expect(Self.at(found, "merges", 0, "conflicts") == conflicts)
        let named = try Self.json(devices.on("phone", "conflicts", String(merge.prefix(7)), "--json"))
        #expect(Self.at(named, "merges") == Self.at(found, "merges"))

        // log: the merge first, with its parents, what it changed and what it decided.
        let log = try Self.json(devices.on("tablet", "log", "--json", "-n", "2"))
        #expect(Self.at(log, "document") == .null)
        #expect(Self.count(Self.at(log, "checkpoints")) == 2)
        let newest = Self.at(log, "checkpoints", 0)
        #expect(Self.text(newest, "id") == merge)
        #expect(Self.text(newest, "parents", 1) == Self.text(pushed, "head"))
        #expect(Self.at(newest, "conflicts") == conflicts)
        #expect(Self.at(newest, "change") == .null)
        #expect(
            Self.at(newest, "changes")
                == .array([
                    .object([
                        "path": .string(Self.book), "file": .string(Self.book + ".json"), "kind": .string("modified"),
                    ])
                ]))
        #expect(Self.isISOTime(Self.text(newest, "time")))
        #expect(Self.text(newest, "author") == "Cairn <u1@cairn.invalid>")
        #expect(Self.text(newest, "message")?.hasPrefix(Self.text(newest, "summary") ?? "-") == true)
        #expect(Self.at(log, "checkpoints", 1, "conflicts") == .array([]))

        // log PATH: the checkpoints that changed the book, newest first, with what each did.
        let history = try Self.json(devices.on("tablet", "log", Self.book, "--json"))
        #expect(Self.text(history, "document") == Self.book)
        let changes =
            (Self.at(history, "checkpoints").flatMap { value -> [JSONValue]? in
                if case .array(let elements) = value { return elements } else { return nil }
            } ?? []).map { Self.text($0, "change") ?? "-" }
        #expect(changes == ["modified", "modified", "modified", "added"])

        // get --at: the tablet's own book before the merge, and the merged book now.
        let own = try Self.json(devices.on("tablet", "get", Self.book, "--at", "HEAD^1", "--json"))
        #expect(Self.text(own, "revision") == "HEAD^1")
        #expect(Self.text(own, "checkpoint") == (try devices.git("tablet", "rev-parse", "HEAD^1")))
        #expect(Self.at(own, "document", "sections", "s1", "updatedAt") == .integer(1_730_200_000_000))
        #expect(Self.at(own, "document") == (try JSONParser().parse(devices.on("tablet", "get", Self.book, "--at", "HEAD^1").stdout)))
        #expect(Self.at(own, "document", "sections", "s2") == nil)
        let theirs = try Self.json(devices.on("tablet", "get", Self.book, "--at", "HEAD^2", "--json"))
        #expect(Self.at(theirs, "document", "sections", "s1", "completed") == .bool(true))
        let now = try Self.json(devices.on("phone", "get", Self.book, "--json"))
        #expect(Self.text(now, "path") == Self.book)
        #expect(Self.at(now, "revision") == .null)
        #expect(Self.at(now, "checkpoint") == .null)
        #expect(Self.at(now, "document") == (try devices.get("phone", Self.book)))
        #expect(Self.at(now, "document", "completedCount") == .integer(1))
        #expect(Self.at(now, "document", "sections", "s2", "completed") == .bool(true))

        try devices.expectConverged(["phone", "tablet"])
    }

    @Test func lsListsTheDocumentsWithTheirSizeAndKind() throws {
        let cli = CLI()
        try cli("init", "u1", "--schema", "life-in-uk")
        for id in ["b2", "b1"] {
            #expect(try cli("put", "users/u1/books/\(id)", input: #"{"schemaVersion":1,"bookId":"\#(id)","sections":{}}"#).status == 0)
        }
        #expect(try cli("put", "users/u1/notes/n1", input: #"{"text":"no schema describes me"}"#).status == 0)
        let books = try Self.json(cli("ls", "users/u1/books", "--json"))
        #expect(Self.text(books, "collection") == "users/u1/books")
        #expect((0..<2).map { Self.text(books, "documents", $0, "id") } == ["b1", "b2"])
        #expect(Self.text(books, "documents", 0, "path") == "users/u1/books/b1")
        #expect(Self.text(books, "documents", 0, "schema") == "book.schema.json")
        let size = try FileManager.default.attributesOfItem(atPath: cli.home + "/u1/users/u1/books/b1.json")[.size] as? Int
        #expect(Self.at(books, "documents", 0, "size") == size.map { .integer(Int64($0)) })
        let notes = try Self.json(cli("ls", "users/u1/notes", "--json"))
        #expect(Self.at(notes, "documents", 0, "schema") == .null)
        let none = try Self.json(cli("ls", "users/u1/exams", "--json"))
        #expect(Self.at(none, "documents") == .array([]))
    }

    @Test func validateListsEachFindingWithItsPointerAndRuleAndFails() throws {
        let cli = CLI()
        try cli("init", "u1", "--schema", "life-in-uk")
        #expect(try cli("put", Self.book, input: Self.book(completed: true, stamp: 5)).status == 0)
        let valid = try Self.json(cli("validate", "--json"))
        #expect(valid == .object(["valid": .bool(true), "findings": .array([])]))

        let books = cli.home + "/u1/users/u1/books/"
        try #"{"bookId": 7, "schemaVersion": 1, "sections": {}}"#.write(toFile: books + "b2.json", atomically: true, encoding: .utf8)
        try "{not json".write(toFile: books + "b3.json", atomically: true, encoding: .utf8)
        let result = try cli("validate", "--json")
        #expect(result.status == 1)
        #expect(result.stderr == "cairn: 2 documents are not valid; fix the files (or put them again) and run cairn validate again\n")
        let report = try JSONParser().parse(result.stdout)
        #expect(Self.at(report, "valid") == .bool(false))
        #expect(Self.count(Self.at(report, "findings")) == 3)
        #expect(
            Self.at(report, "findings", 0)
                == .object([
                    "path": .string("users/u1/books/b2"), "pointer": .string("/bookId"), "keyword": .string("type"),
                    "schema": .string("book.schema.json"), "schemaPath": .string("/properties/bookId/type"),
                    "message": .string("is integer, must be string"),
                ]))
        // Written by hand, b2 also lacks the derived fields its sections give.
        #expect(Self.text(report, "findings", 1, "path") == "users/u1/books/b2")
        #expect(Self.text(report, "findings", 1, "keyword") == "derive")
        #expect(Self.text(report, "findings", 1, "pointer") == "")
        #expect(Self.text(report, "findings", 2, "path") == "users/u1/books/b3")
        #expect(Self.text(report, "findings", 2, "keyword") == "json")
        #expect(Self.at(report, "findings", 2, "schemaPath") == .null)
        #expect(Self.text(report, "findings", 2, "schema") == "book.schema.json")
        // The human output says the same, unchanged.
        #expect(
            try cli("validate").stdout.contains("users/u1/books/b2: /bookId: is integer, must be string (type at /properties/bookId/type)"))

        let one = try cli("validate", Self.book, "--json")
        #expect(try Self.json(one) == .object(["valid": .bool(true), "findings": .array([])]))
    }

    @Test func aFailureIsOneLineOnStderrAndNoJSON() throws {
        let cli = CLI()
        try cli("init", "u1", "--schema", "life-in-uk")
        #expect(try cli("put", Self.book, input: Self.book(completed: true, stamp: 5)).status == 0)
        let before = try cli.snapshot("u1")
        let cases: [([String], Int32, String)] = [
            (["get", "users/u1/books/none", "--json"], 1, "there is no document at users/u1/books/none"),
            (["get", Self.book, "--at", "no-such-rev", "--json"], 1, "unknown revision \"no-such-rev\""),
            (["get", Self.book, "--at", "HEAD~5", "--json"], 1, "unknown revision \"HEAD~5\""),
            (["log", "users/u2/books/b1", "--json"], 1, "users/u2"),
            (["conflicts", "no-such-rev", "--json"], 1, "unknown revision \"no-such-rev\""),
            (["validate", "users/u1/books/none", "--json"], 1, "there is no document at users/u1/books/none"),
            (["sync", "--json"], 1, "remote"),
            (["ls", Self.book, "--json"], 1, "names a document"),
            (["status", "--json", "--user", "u9"], 1, "there is no store for user u9"),
        ]
        for (arguments, status, message) in cases {
            let result = try runProcess(CLI.executable, ["--home", cli.home] + arguments)
            #expect(result.status == status, "\(arguments): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(arguments) printed \(result.stdout)")
            #expect(result.stderr.hasPrefix("cairn: ") && result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(arguments): one line")
        }
        #expect(try cli.snapshot("u1") == before)
    }
}
