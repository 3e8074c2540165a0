import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// "Why does this book show these sections read?": `cairn diff` and `cairn log -p` answer in
/// documents and JSON pointers, not lines — what was written since the last checkpoint,
/// what changed between two checkpoints, and what a merge brought in.
@Suite(.historiesVerified) struct HistoryDiffTests {
    static let book = "users/u1/books/b1"

    static func book(_ sections: String) -> String {
        #"{"schemaVersion":1,"bookId":"b1","sections":{\#(sections)}}"#
    }

    @Test func aReaderSeesTheSectionsThatChangedSinceTheLastCheckpointAndBetweenTwo() throws {
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("phone")
        try devices.put("phone", Self.book, Self.book(#""s1":{"completed":true,"updatedAt":1}"#))
        try devices.on("phone", "checkpoint", "-m", "read s1")
        try devices.put("phone", Self.book, Self.book(#""s1":{"completed":false,"updatedAt":2},"s2":{"completed":true,"updatedAt":3}"#))
        try devices.put("phone", "users/u1/examAttempts/a1", #"{"attemptId":"a1","examId":"practice-1","status":"passed","score":83}"#)

        // Not checkpointed yet: against the last checkpoint, derived fields included.
        let pending = try devices.on("phone", "diff")
        #expect(pending.status == 0 && pending.stderr.isEmpty, "\(pending.stderr)")
        #expect(
            pending.stdout == """
                changed users/u1/books/b1
                  /lastSectionId: "s1" → "s2"
                  /sections/s1/completed: true → false
                  /sections/s1/updatedAt: 1 → 2
                  /sections/s2: absent → { "completed": true, "updatedAt": 3 }
                added   users/u1/examAttempts/a1
                  /: absent → { "attemptId": "a1", "examId": "practice-1", "score": 83, "status": "passed" }

                """)
        #expect(try devices.on("phone", "diff", Self.book).stdout.hasPrefix("changed users/u1/books/b1\n"))
        #expect(try devices.on("phone", "diff", "users/u1/books").stdout.split(separator: "\n").first == "changed users/u1/books/b1")
        #expect(try devices.on("phone", "diff", "users/u1/examAttempts/a2").stdout.isEmpty)

        // Checkpointed: between two checkpoints, and from one to the working tree.
        try devices.on("phone", "checkpoint")
        #expect(try devices.on("phone", "diff").stdout.isEmpty, "nothing written since")
        let between = try devices.on("phone", "diff", "HEAD~1", "HEAD", "users/u1/books")
        #expect(between.stdout == pending.stdout.components(separatedBy: "added ").first)
        #expect(try devices.on("phone", "diff", "HEAD~1").stdout == pending.stdout)
        #expect(try devices.on("phone", "diff", "HEAD", "HEAD~1", Self.book).stdout.contains("/sections/s1/completed: false → true"))

        // For scripts: full ids, the values themselves, an absent side left out.
        let json = try ScriptOutputTests.json(devices.on("phone", "diff", "HEAD~1", "HEAD", "--json"))
        #expect(ScriptOutputTests.text(json, "from") == (try devices.git("phone", "rev-parse", "HEAD~1")))
        #expect(ScriptOutputTests.text(json, "to") == (try devices.git("phone", "rev-parse", "HEAD")))
        #expect(ScriptOutputTests.count(ScriptOutputTests.at(json, "documents")) == 2)
        #expect(ScriptOutputTests.text(json, "documents", 0, "path") == "users/u1/books/b1")
        #expect(ScriptOutputTests.text(json, "documents", 0, "change") == "changed")
        #expect(
            ScriptOutputTests.at(json, "documents", 0, "changes", 0)
                == .object(["pointer": .string("/lastSectionId"), "before": .string("s1"), "after": .string("s2")]))
        #expect(ScriptOutputTests.text(json, "documents", 1, "change") == "added")
        #expect(ScriptOutputTests.at(json, "documents", 1, "changes", 0, "before") == nil)
        #expect(ScriptOutputTests.at(json, "documents", 1, "changes", 0, "after", "score") == .integer(83))
    }

    @Test func theLogOfABookShowsWhatEachCheckpointAndTheMergeChanged() throws {
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("phone")
        try devices.put("phone", Self.book, Self.book(#""s1":{"completed":true,"updatedAt":1730000000000}"#))
        try devices.sync("phone")
        try devices.clone("tablet")
        // Offline on both: the phone reads s2, the tablet marks s1 not done later.
        try devices.put(
            "phone", Self.book,
            Self.book(#""s1":{"completed":true,"updatedAt":1730000000000},"s2":{"completed":true,"updatedAt":1730100000000}"#))
        try devices.put("tablet", Self.book, Self.book(#""s1":{"completed":false,"updatedAt":1730200000000}"#))
        try devices.sync("phone")
        try devices.sync("tablet")

        let log = try devices.on("tablet", "log", "-p", Self.book)
        #expect(log.status == 0, "\(log.stderr)")
        let entries = log.stdout.components(separatedBy: "\n").split { !$0.hasPrefix(" ") && !$0.isEmpty }
        let headers = log.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
        #expect(headers.count == 4, "the merge, the tablet's checkpoint, the phone's, the first: \(log.stdout)")
        #expect(headers.first?.contains("Sync: merged") == true, "\(log.stdout)")
        // The merge, against the tablet's own checkpoint: the phone's s2 came in.
        #expect(
            entries.first?.map { $0.trimmingCharacters(in: .whitespaces) } == [
                "changed users/u1/books/b1",
                "/completedCount: 0 → 1",
                "/sections/s2: absent → { \"completed\": true, \"updatedAt\": 1730100000000 }",
            ], "\(log.stdout)")
        #expect(entries.dropFirst().first?.contains("    changed users/u1/books/b1") == true)
        #expect(entries.dropFirst().first?.contains("      /sections/s1/completed: true → false") == true, "\(log.stdout)")

        let json = try ScriptOutputTests.json(devices.on("tablet", "log", "-p", Self.book, "--json"))
        #expect(ScriptOutputTests.count(ScriptOutputTests.at(json, "checkpoints", 0, "diff", 0, "changes")) == 2)
        #expect((0..<4).allSatisfy { ScriptOutputTests.count(ScriptOutputTests.at(json, "checkpoints", $0, "diff")) == 1 })
        #expect(ScriptOutputTests.at(try ScriptOutputTests.json(devices.on("tablet", "log", "--json")), "checkpoints", 0, "diff") == nil)
    }

    @Test func aRangeThatDoesNotExistOrArgumentsOutOfOrderAreOneLineEach() throws {
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("phone")
        for (arguments, says) in [
            (["diff", "nosuch"], "unknown revision \"nosuch\""),
            (["diff", "HEAD", "HEAD~5"], "unknown revision \"HEAD~5\""),
            (["diff", "HEAD", "HEAD", "HEAD"], "is a third revision"),
            (["diff", Self.book, "HEAD"], "comes after the path"),
            (["diff", "users/u1/../u2"], "invalid ID \"..\""),
            (["log", "-p", "users/u1/books/../b"], "invalid ID \"..\""),
        ] {
            let result = try devices.on("phone", arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(says), "\(arguments): \(result.stderr)")
        }
    }
}
