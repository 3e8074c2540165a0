import CairnMerge
import CairnTestSupport
import Foundation
import Testing

/// Merging whole stores' documents: additions, changes and deletions on either side.
@Suite struct DocumentTreeMergeTests {
    let set: SchemaSet

    init() throws {
        set = try SchemaSet(files: shippedSchemaSet("life-in-uk").files)
    }

    func doc(_ text: String) throws -> JSONValue { try JSONParser().parse(text) }
    func path(_ text: String) throws -> DocumentPath { try DocumentPath(text) }

    @Test func twoDevicesOfflineConvergeWithEveryAttemptKept() throws {
        let summary = try path("users/u1/progress/exam")
        let base: [DocumentPath: JSONValue] = [
            summary: try doc(
                #"{"favorites":{"Q1":true},"examSummaries":{"practice-1":{"attemptCount":1,"bestScore":80,"lastCompletedAt":"2025-12-01T10:00:00Z"}}}"#
            ),
            try path("users/u1/examAttempts/a1"): try doc(#"{"attemptId":"a1","examId":"practice-1","status":"passed","score":80}"#),
            try path("users/u1/examInProgress/practice-2"): try doc(#"{"examId":"practice-2","clientUpdatedAt":5}"#),
        ]
        var phone = base
        phone[try path("users/u1/examAttempts/a2")] = try doc(#"{"attemptId":"a2","examId":"practice-1","status":"passed","score":90}"#)
        phone[summary] = try doc(
            #"{"favorites":{"Q1":true,"Q2":true},"examSummaries":{"practice-1":{"attemptCount":2,"bestScore":90,"lastCompletedAt":"2025-12-02T10:00:00Z"}}}"#
        )
        phone[try path("users/u1/examInProgress/practice-2")] = nil
        var tablet = base
        tablet[try path("users/u1/examAttempts/a3")] = try doc(#"{"attemptId":"a3","examId":"practice-1","status":"failed","score":40}"#)
        tablet[summary] = try doc(
            #"{"favorites":{},"examSummaries":{"practice-1":{"attemptCount":2,"bestScore":80,"lastCompletedAt":"2025-12-03T10:00:00Z"}}}"#)
        tablet[try path("users/u1/examInProgress/practice-2")] = try doc(
            #"{"examId":"practice-2","clientUpdatedAt":9,"currentQuestionIndex":4}"#)

        let merged = set.mergeDocuments(base: base, ours: phone, theirs: tablet)
        let reversed = set.mergeDocuments(base: base, ours: tablet, theirs: phone)
        #expect(merged.documents.mapValues { $0.canonicalBytes() } == reversed.documents.mapValues { $0.canonicalBytes() })
        #expect(merged.conflicts == reversed.conflicts)
        // Every attempt of both devices is there.
        for id in ["a1", "a2", "a3"] { #expect(merged.documents[try path("users/u1/examAttempts/\(id)")] != nil) }
        // The summary counts both new attempts, keeps the best score and the latest "last" fields.
        let entry = try #require(merged.documents[summary]?.field("examSummaries")?.field("practice-1"))
        #expect(entry.field("attemptCount") == .integer(3))
        #expect(entry.field("bestScore") == .integer(90))
        #expect(entry.field("lastCompletedAt") == .string("2025-12-03T10:00:00Z"))
        // Q2 added on the phone stays; Q1 removed on the tablet goes.
        #expect(merged.documents[summary]?.field("favorites") == (try doc(#"{"Q2":true}"#)))
        // The exam in progress deleted on one device and continued on the other is kept.
        #expect(merged.documents[try path("users/u1/examInProgress/practice-2")]?.field("currentQuestionIndex") == .integer(4))
        #expect(merged.conflicts.contains { $0.document?.description == "users/u1/examInProgress/practice-2" && $0.replaced == nil })
    }

    @Test func randomStoresMergeSymmetrically() throws {
        var generator = SplitMix(seed: 99)
        let paths = try ["users/u1/books/b1", "users/u1/books/b2", "users/u1/examAttempts/a1", "users/u1/notes/n1"].map(path)
        func randomBook(_ generator: inout SplitMix) -> JSONValue {
            var sections: JSONObject = [:]
            for key in ["s1", "s2", "s3"] where Bool.random(using: &generator) {
                sections[key] = .object([
                    "completed": .bool(Bool.random(using: &generator)),
                    "updatedAt": .integer(Int64.random(in: 0...4, using: &generator)),
                ])
            }
            return .object(["schemaVersion": .integer(1), "bookId": .string("b"), "sections": .object(sections)])
        }
        for _ in 0..<500 {
            var stores: [[DocumentPath: JSONValue]] = [[:], [:], [:]]
            for index in 0..<3 {
                for path in paths where Int.random(in: 0..<4, using: &generator) > 0 {
                    stores[index][path] = path.collection.id == "books" ? randomBook(&generator) : MergeSamples.object(&generator)
                }
            }
            let forward = set.mergeDocuments(base: stores[0], ours: stores[1], theirs: stores[2])
            let backward = set.mergeDocuments(base: stores[0], ours: stores[2], theirs: stores[1])
            #expect(forward.documents.mapValues { $0.canonicalBytes() } == backward.documents.mapValues { $0.canonicalBytes() })
            #expect(forward.conflicts.map(\.description) == backward.conflicts.map(\.description))
        }
    }
}

@Suite struct DocumentCountMergeTests {
    @Test func twoDevicesEachAddingAProfileCountBoth() throws {
        let set = try SchemaSet(files: shippedSchemaSet("remi").files)
        let user = try DocumentPath("users/u1")
        let base: [DocumentPath: JSONValue] = [user: .object(["profileCount": .integer(0), "taskCount": .integer(0)])]
        var phone = base
        phone[try DocumentPath("users/u1/profiles/+447700900123")] = .object(["phoneNumber": .string("+447700900123")])
        phone[user] = .object(["profileCount": .integer(1), "taskCount": .integer(0)])
        var tablet = base
        tablet[try DocumentPath("users/u1/profiles/+447700900456")] = .object(["phoneNumber": .string("+447700900456")])
        tablet[try DocumentPath("users/u1/profiles/+447700900456/habits/h1")] = .object(["title": .string("Walk")])
        tablet[user] = .object(["profileCount": .integer(1), "taskCount": .integer(1)])
        let merged = set.mergeDocuments(base: base, ours: phone, theirs: tablet)
        #expect(merged.documents[user]?.field("profileCount") == .integer(2))
        #expect(merged.documents[user]?.field("taskCount") == .integer(1))
        #expect(!merged.conflicts.contains { $0.document == user })
        #expect(set.owners(affectedBy: try DocumentPath("users/u1/profiles/+447700900456/habits/h1")) == [user])
    }
}
