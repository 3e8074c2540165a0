import CairnCore
import CairnMerge
import CairnTestSupport
import CairnTesting
import CairnToolTestSupport
import Foundation
import Testing

/// Merge stories told through CairnTesting's Swift API, as an app's own tests tell them:
/// two devices of a user, offline edits, a merge, and what must hold after it.
@Suite(.historiesVerified) struct TwoDeviceStoryTests {
    func book(_ sections: String, updatedAt: Int) throws -> JSONValue {
        try json(#"{"schemaVersion":1,"bookId":"b1","updatedAt":\#(updatedAt),"sections":{\#(sections)}}"#)
    }

    @Test func twoDevicesMarkingOneBookConvergeWithTheirRecords() throws {
        let story = try Story(schemaSet: try shippedSchemaSet("life-in-uk"), devices: ["phone", "laptop"])
        try story.run(
            .put(device: "phone", path: "users/u1/books/b1", value: try book(#""s1":{"completed":true,"updatedAt":10}"#, updatedAt: 10)))
        try story.run(.sync(device: "phone"))
        try story.run(.sync(device: "laptop"))
        try story.expect(.contains(device: "laptop", path: "users/u1/books/b1", value: try json(#"{"completedCount":1}"#)))

        // Offline, both mark s1; the phone also marks s2 by a patch.
        try story.run(.offline(device: "phone"))
        try story.run(
            .patch(
                device: "phone", path: "users/u1/books/b1",
                patch: try json(
                    #"{"updatedAt":30,"sections":{"s1":{"completed":false,"updatedAt":30},"s2":{"completed":true,"updatedAt":31}}}"#)))
        try story.run(.sync(device: "phone"))
        try story.run(
            .put(device: "laptop", path: "users/u1/books/b1", value: try book(#""s1":{"completed":true,"updatedAt":20}"#, updatedAt: 20)))
        try story.run(.sync(device: "laptop"))
        try story.run(.online(device: "phone"))
        try story.run(.sync(device: "phone"))
        try story.run(.sync(device: "laptop"))

        let s1 = ConflictRecord(
            document: try path("users/u1/books/b1"), pointer: "/sections/s1", policy: PolicyName(rawValue: "lww(updatedAt)"),
            kept: try json(#"{"completed":false,"updatedAt":30}"#), replaced: try json(#"{"completed":true,"updatedAt":20}"#))
        let stamp = ConflictRecord(
            document: try path("users/u1/books/b1"), pointer: "/updatedAt", policy: .max, kept: .integer(30), replaced: .integer(20))
        try story.expect(.conflicts(device: "phone", records: [stamp.jsonValue, s1.jsonValue]))
        try story.expect(
            .equals(
                device: "laptop", path: "users/u1/books/b1",
                value: try json(
                    #"""
                    {"schemaVersion":1,"bookId":"b1","updatedAt":30,"completedCount":1,"lastSectionId":"s2",
                     "sections":{"s1":{"completed":false,"updatedAt":30},"s2":{"completed":true,"updatedAt":31}}}
                    """#)))
        try story.expect(.sameTree(devices: [], remote: true))
        #expect(story.stepsTaken == 15)
    }

    @Test func aFailingExpectationNamesItsStepAndTheDifferences() throws {
        let story = try Story(schemaSet: try shippedSchemaSet("life-in-uk"), devices: ["phone", "laptop"])
        try story.run(
            .put(device: "phone", path: "users/u1/books/b1", value: try book(#""s1":{"completed":true,"updatedAt":10}"#, updatedAt: 10)))
        // Not synced: the laptop has no book, then the phone's differs from the one expected.
        let absent = #expect(throws: StoryFailure.self) {
            try story.expect(.contains(device: "laptop", path: "users/u1/books/b1", value: try json(#"{"completedCount":1}"#)))
        }
        #expect(absent?.step == 1)
        #expect(absent?.message == "users/u1/books/b1 is absent on laptop")
        let differs = #expect(throws: StoryFailure.self) {
            try story.expect(
                .equals(
                    device: "phone", path: "users/u1/books/b1",
                    value: try book(#""s1":{"completed":false,"updatedAt":10},"s9":{"completed":true,"updatedAt":1}"#, updatedAt: 10)))
        }
        #expect(differs?.step == 2)
        #expect(differs?.stepDescription == "expect users/u1/books/b1 on phone equals")
        let lines = differs?.differences.map(\.description) ?? []
        #expect(lines.contains("/sections/s1/completed: expected false, found true"), "\(lines)")
        #expect(lines.contains(#"/sections/s9: missing, expected { "completed": true, "updatedAt": 1 }"#), "\(lines)")
        #expect(lines.contains("/completedCount: unexpected, found 1"), "\(lines)")
        #expect(lines.contains(#"/lastSectionId: unexpected, found "s1""#), "\(lines)")
        #expect(
            differs?.description.hasPrefix("step 2 (expect users/u1/books/b1 on phone equals): users/u1/books/b1 on phone differs\n  /")
                == true)
    }

    @Test func anOfflineSyncReachesNothingAndARefusalWritesNothing() throws {
        let story = try Story(schemaSet: try shippedSchemaSet("life-in-uk"), devices: ["phone", "laptop"])
        let attempt = try json(#"{"attemptId":"a1","examId":"practice-1","status":"passed","score":83}"#)
        try story.run(.offline(device: "phone"))
        try story.run(.put(device: "phone", path: "users/u1/examAttempts/a1", value: attempt))
        try story.run(.sync(device: "phone"))
        try story.run(.sync(device: "laptop"))
        try story.expect(.absent(device: "laptop", path: "users/u1/examAttempts/a1"))
        // The checkpoint was made offline, and travels once the phone is online.
        try story.run(.online(device: "phone"))
        try story.run(.sync(device: "phone"))
        try story.run(.sync(device: "laptop"))
        try story.expect(.equals(device: "laptop", path: "users/u1/examAttempts/a1", value: attempt))

        try story.expect(
            .refused(
                .patch(device: "laptop", path: "users/u1/examAttempts/a1", patch: try json(#"{"score":100}"#)),
                code: .invalidInput, message: "is append-only"))
        // A store's refusal is told apart by its cause, not its message.
        let appendOnly = #expect(throws: StoryFailure.self) {
            try story.run(.remove(device: "laptop", path: "users/u1/examAttempts/a1", recursive: false))
        }
        #expect((appendOnly?.storeError?.cause as? AppendOnlyRefusal)?.change == .deleted, "\(appendOnly?.description ?? "")")
        try story.expect(
            .refused(
                .put(
                    device: "laptop", path: "users/u1/examAttempts/a2",
                    value: try json(#"{"attemptId":"a2","examId":"x","status":"passed","score":120}"#)),
                code: .invalidInput, message: nil))
        // A step that is taken, or refused for another reason, fails the expectation.
        let taken = #expect(throws: StoryFailure.self) {
            try story.expect(.refused(.checkpoint(device: "laptop"), code: nil, message: nil))
        }
        #expect(taken?.message == "expected a refusal, and the step was taken")
        let otherCode = #expect(throws: StoryFailure.self) {
            try story.expect(
                .refused(.remove(device: "laptop", path: "users/u1/examAttempts/a1", recursive: false), code: .notFound, message: nil))
        }
        #expect(otherCode?.message.hasPrefix("refused as invalid input, not not found") == true, "\(otherCode?.message ?? "")")
        // An unexpected refusal fails its step, with the store's error: its schema's findings.
        let refused = #expect(throws: StoryFailure.self) {
            try story.run(
                .put(
                    device: "phone", path: "users/u1/examAttempts/a3",
                    value: try json(#"{"attemptId":"a3","examId":"x","status":"passed","score":120}"#)))
        }
        #expect(refused?.pointer == nil)
        #expect(refused?.message.contains("breaks its schema") == true, "\(refused?.message ?? "")")
        #expect((refused?.storeError?.cause as? SchemaRefusal)?.errors.first?.pointer == "/score")
    }

    @Test func aDeviceClockDatesItsCheckpoints() throws {
        let story = try Story(schemaSet: try shippedSchemaSet("life-in-uk"), devices: ["phone"])
        try story.run(.clock(device: "phone", milliseconds: 1_795_341_600_000))
        try story.run(
            .put(device: "phone", path: "users/u1/books/b1", value: try book(#""s1":{"completed":true,"updatedAt":10}"#, updatedAt: 10)))
        try story.run(.checkpoint(device: "phone"))
        let latest = try #require(try story.store("phone").history(limit: 1).first)
        #expect(latest.checkpoint.time == 1_795_341_600)
        #expect(try story.store("phone").clock() == 1_795_341_600_000)
    }

    /// `.verified` audits every device and the remote: sound after Cairn's own steps, and a
    /// commit another tool made that breaks a rule is a failure naming the device and the
    /// finding.
    @Test func verifiedNamesEachFindingWithItsDevice() throws {
        let story = try Story(schemaSet: try shippedSchemaSet("life-in-uk"), devices: ["phone", "laptop"])
        try story.run(
            .put(device: "phone", path: "users/u1/books/b1", value: try book(#""s1":{"completed":true,"updatedAt":10}"#, updatedAt: 10)))
        try story.run(.sync(device: "phone"))
        try story.run(.sync(device: "laptop"))
        try story.expect(.verified)
        // An attempt over the maximum, committed on the laptop with plain git.
        let laptop = try story.store("laptop").folder
        try FileManager.default.createDirectory(atPath: laptop + "/users/u1/examAttempts", withIntermediateDirectories: true)
        try #"{"attemptId":"a1","examId":"x","score":150,"status":"passed"}"#.write(
            toFile: laptop + "/users/u1/examAttempts/a1.json", atomically: true, encoding: .utf8)
        #expect(try runProcess("/usr/bin/git", ["-C", laptop, "add", "-A"]).status == 0)
        #expect(
            try runProcess(
                "/usr/bin/git", ["-C", laptop, "-c", "user.name=X", "-c", "user.email=x@example.org", "commit", "-qm", "by hand"]
            ).status == 0)
        let failure = #expect(throws: StoryFailure.self) { try story.expect(.verified) }
        #expect(failure?.message.hasPrefix("cairn verify found a finding: laptop: commit ") == true, "\(failure?.message ?? "")")
        #expect(failure?.message.contains("users/u1/examAttempts/a1 breaks its schema") == true, "\(failure?.message ?? "")")
        #expect(failure?.step == 4, "the fifth step, counted from 0")
    }

    @Test func theStoryLeavesNothingBehind() throws {
        var folder = ""
        do {
            let story = try Story(schemaSet: try shippedSchemaSet("life-in-uk"), devices: ["phone"])
            folder = story.folder
            #expect(FileManager.default.fileExists(atPath: folder + "/server/u1.git"))
        }
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(throws: StoryFailure.self) { try Story(schemaSet: try shippedSchemaSet("life-in-uk"), devices: ["phone", "phone"]) }
        #expect(throws: StoryFailure.self) { try Story(schemaSet: try shippedSchemaSet("life-in-uk"), devices: []) }
    }

    /// A set of one kind, notes at `users/{uid}/notes/{noteId}`, with `properties`.
    func notes(_ properties: String) -> SchemaSetFiles {
        let schema = #"{"x-cairn": {"path": "users/{uid}/notes/{noteId}"}, "type": "object", "properties": \#(properties)}"#
        return SchemaSetFiles(name: "notes", files: ["note.schema.json": Array(schema.utf8)])
    }

    @Test func aSyncTheRemoteRefusesKeepsOnlyTheCheckpointOfItsPendingWrites() throws {
        // Tags merge as a union, and the remote takes at most two.
        let story = try Story(
            schemaSet: notes(#"{"tags": {"type": "array", "items": {"enum": ["a", "b", "c"]}, "maxItems": 2, "x-merge": "union"}}"#),
            devices: ["phone", "laptop"])
        let note = "users/u1/notes/n1"
        try story.run(.put(device: "phone", path: note, value: try json(#"{"tags":["a"]}"#)))
        try story.run(.sync(device: "phone"))
        try story.run(.sync(device: "laptop"))
        try story.run(.put(device: "phone", path: note, value: try json(#"{"tags":["a","b"]}"#)))
        try story.run(.sync(device: "phone"))
        // The laptop's c, pending, merges with the phone's b into three tags: refused.
        try story.run(.put(device: "laptop", path: note, value: try json(#"{"tags":["a","c"]}"#)))
        let laptop = try story.store("laptop")
        let before = try #require(try laptop.history(limit: 1).first).checkpoint.id
        try story.expect(.refused(.sync(device: "laptop"), code: .refused, message: "maxItems"))
        // Its pending write is checkpointed on top of where it was; its document and the
        // remote are as they were.
        #expect(try laptop.status().pending.isEmpty)
        let after = try #require(try laptop.history(limit: 1).first).checkpoint
        #expect(after.parents == [before])
        try story.expect(.equals(device: "laptop", path: note, value: try json(#"{"tags":["a","c"]}"#)))
        try story.expect(.sameTree(devices: ["phone"], remote: true))
        // Refused again with nothing pending, the checkpoint may not move either.
        try story.expect(.refused(.sync(device: "laptop"), code: .refused, message: nil))
        #expect(try laptop.history(limit: 1).first?.checkpoint.id == after.id)
        // A sync that is taken is no refusal.
        try story.run(.put(device: "laptop", path: note, value: try json(#"{"tags":["a","b"]}"#)))
        let taken = #expect(throws: StoryFailure.self) { try story.expect(.refused(.sync(device: "laptop"), code: nil, message: nil)) }
        #expect(taken?.message == "expected a refusal, and the step was taken")
    }

    @Test func containsComparesAnArrayAsAWhole() throws {
        let story = try Story(schemaSet: notes(#"{"items": {"type": "array"}, "title": {"type": "string"}}"#), devices: ["phone"])
        let note = "users/u1/notes/n1"
        try story.run(.put(device: "phone", path: note, value: try json(#"{"items":[{"name":"a","done":true}],"title":"t"}"#)))
        try story.expect(.contains(device: "phone", path: note, value: try json(#"{"items":[{"done":true,"name":"a"}]}"#)))
        // An element holding more than the one expected differs: the array is one value.
        let partial = #expect(throws: StoryFailure.self) {
            try story.expect(.contains(device: "phone", path: note, value: try json(#"{"items":[{"name":"a"}]}"#)))
        }
        #expect(partial?.differences.map(\.pointer) == ["/items"], "\(partial?.description ?? "")")
    }
}
