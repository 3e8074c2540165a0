import CairnCore
import CairnMerge
import CairnServer
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// The store as an app holds it: typed documents, checkpoints on the schema set's schedule
/// under a clock the test moves, observation of local writes and of what a sync brings.
@Suite(.historiesVerified) struct ProgressStoreTests {
    let folder = TemporaryFolder("cairn-app")

    struct ExamAttempt: Codable, Equatable {
        var attemptId: String
        var examId: String
        var status: String
        var score: Int
        var finishedAt: Date
    }

    func home(_ device: String = "phone") -> Home { Home(root: folder.path + "/" + device) }

    /// A store of u1 with the life-in-uk set, opened with `clock`.
    func open(_ clock: ManualClock = ManualClock(), device: String = "phone") throws -> ProgressStore {
        if !home(device).users().contains("u1") {
            try home(device).createStore("u1", schemaSet: shippedSchemaSet("life-in-uk"))
        }
        return try ProgressStore(home: home(device), user: "u1", clock: clock)
    }

    func checkpoints(_ store: ProgressStore) throws -> Int {
        try store.withStore { store throws(CairnError) in try store.history().count }
    }

    func pending(_ store: ProgressStore) throws -> Int {
        try store.withStore { store throws(CairnError) in try store.status().pending.count }
    }

    @Test func typedDocumentsRoundTrip() throws {
        let store = try open()
        let attempt = ExamAttempt(
            attemptId: "a1", examId: "practice-1", status: "passed", score: 83,
            finishedAt: Date(timeIntervalSince1970: 1_730_000_000))
        try store.put(attempt, at: "users/u1/examAttempts/\(attempt.attemptId)")
        #expect(try store.get(ExamAttempt.self, at: "users/u1/examAttempts/a1") == attempt)
        #expect(try store.get("users/u1/examAttempts/a1")?.field("finishedAt") == .string("2024-10-27T03:33:20Z"))
        #expect(try store.get(ExamAttempt.self, at: "users/u1/examAttempts/a2") == nil)
        #expect(try store.list("users/u1/examAttempts") == ["a1"])
        // The schema still decides, and bad paths are refused with the rule.
        var tooHigh = attempt
        tooHigh.attemptId = "a3"
        tooHigh.score = 120
        #expect { try store.put(tooHigh, at: "users/u1/examAttempts/a3") } throws: { error in
            (error as? CairnError)?.message.contains("breaks its schema") == true
        }
        #expect { try store.put(attempt, at: "users/u1/examAttempts/..") } throws: { error in
            (error as? CairnError)?.code == .invalidInput
        }
        #expect { try store.get(Int.self, at: "users/u1/examAttempts/a1") } throws: { error in
            (error as? CairnError)?.message.contains("does not decode as Int") == true
        }
    }

    /// Seed 000 §7.4: a submitted attempt is checkpointed at once, an exam in progress at most
    /// once a minute, book marks 5 s after the last one; a flush commits what waits.
    @Test func checkpointsFollowTheSchemaSetsPolicies() async throws {
        let clock = ManualClock(now: 1_000)
        let store = try open(clock)
        let start = try checkpoints(store)

        try store.put(
            .object(["attemptId": .string("a1"), "examId": .string("practice-1"), "status": .string("passed"), "score": .integer(80)]),
            at: "users/u1/examAttempts/a1")
        #expect(try checkpoints(store) == start + 1, "immediate: committed before put returned")
        #expect(try pending(store) == 0)

        func progress(_ question: Int64) -> JSONValue {
            .object(["examId": .string("practice-2"), "clientUpdatedAt": .integer(question), "currentQuestionIndex": .integer(question)])
        }
        try store.put(progress(1), at: "users/u1/examInProgress/practice-2")
        #expect(try checkpoints(store) == start + 2, "throttle: the first write after a quiet minute goes at once")
        clock.advance(by: 10)
        try store.put(progress(2), at: "users/u1/examInProgress/practice-2")
        clock.advance(by: 10)
        try store.put(progress(3), at: "users/u1/examInProgress/practice-2")
        #expect(try checkpoints(store) == start + 2)
        #expect(store.nextCheckpoint == 1_060)
        clock.advance(by: 39)
        #expect(try checkpoints(store) == start + 2)
        clock.advance(by: 1)
        #expect(try checkpoints(store) == start + 3, "throttle: one checkpoint for the writes of the minute")
        #expect(try pending(store) == 0)

        func book(_ sections: Int) -> JSONValue {
            var entries: JSONObject = [:]
            for index in 1...sections { entries["s\(index)"] = .object(["completed": .bool(true), "updatedAt": .integer(Int64(index))]) }
            return .object([
                "schemaVersion": .integer(1), "bookId": .string("b1"), "sections": .object(entries), "updatedAt": .integer(Int64(sections)),
            ])
        }
        try store.put(book(1), at: "users/u1/books/b1")
        clock.advance(by: 3)
        try store.put(book(2), at: "users/u1/books/b1")
        clock.advance(by: 4.9)
        #expect(try checkpoints(store) == start + 3, "debounce: a later mark pushed it back")
        clock.advance(by: 0.1)
        #expect(try checkpoints(store) == start + 4)

        try store.put(book(3), at: "users/u1/books/b1")
        #expect(try pending(store) == 1)
        let flushed = try await store.checkpoint(message: "app backgrounded")
        #expect(flushed.id != nil)
        #expect(try pending(store) == 0)
        #expect(store.nextCheckpoint == nil)
        clock.advance(by: 60)
        #expect(try checkpoints(store) == start + 5, "nothing left to commit")
    }

    @Test func observersSeeLocalWritesAndWhatASyncBrings() async throws {
        let remote = folder.path + "/server"
        _ = try Server.createRepositories(in: remote, uids: ["u1"], cairn: "/bin/false")
        let phone = try open(device: "phone")
        try phone.withStore { store throws(CairnError) in try store.setRemote(RemoteURL(remote + "/u1.git")) }
        try await phone.sync(SyncOptions(retry: .none))
        try home("tablet").cloneStore(from: RemoteURL(remote + "/u1.git"), options: SyncOptions(retry: .none))
        let tablet = try ProgressStore(home: home("tablet"), user: "u1", clock: ManualClock())

        let books = tablet.changes(under: "users/u1/books")
        var iterator = books.makeAsyncIterator()
        let everything = phone.changes()
        var all = everything.makeAsyncIterator()

        try phone.put(.object(["schemaVersion": .integer(1), "bookId": .string("b1"), "sections": .object([:])]), at: "users/u1/books/b1")
        #expect(await all.next() == [try DocumentPath("users/u1/books/b1")])
        try tablet.put(
            .object(["attemptId": .string("t1"), "examId": .string("practice-1"), "status": .string("passed"), "score": .integer(70)]),
            at: "users/u1/examAttempts/t1")
        try await phone.sync(SyncOptions(retry: .none))
        try await tablet.sync(SyncOptions(retry: .none))
        #expect(await iterator.next() == [try DocumentPath("users/u1/books/b1")], "the tablet hears of the phone's book after its sync")
        try await phone.sync(SyncOptions(retry: .none))
        #expect(await all.next() == [try DocumentPath("users/u1/examAttempts/t1")], "the phone hears of the tablet's attempt")
    }

    @Test func manyTasksWriteAtOnce() async throws {
        let store = try open()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    try store.put(
                        .object([
                            "attemptId": .string("a\(index)"), "examId": .string("practice-1"),
                            "status": .string("passed"), "score": .integer(Int64(index)),
                        ]),
                        at: "users/u1/examAttempts/a\(index)")
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.list("users/u1/examAttempts").count == 40)
        #expect(try pending(store) == 0, "attempts are checkpointed at once")
        #expect(try store.withStore { store throws(CairnError) in try store.validate() }.isEmpty)
    }

    /// Syncs on a schedule: every 5 minutes of the store's clock, the tablet's work arrives.
    @Test func scheduledSyncsRunOnTheClock() async throws {
        let remote = folder.path + "/server"
        _ = try Server.createRepositories(in: remote, uids: ["u1"], cairn: "/bin/false")
        let clock = ManualClock()
        let phone = try open(clock, device: "phone")
        try phone.withStore { store throws(CairnError) in try store.setRemote(RemoteURL(remote + "/u1.git")) }
        try await phone.sync(SyncOptions(retry: .none))
        try home("tablet").cloneStore(from: RemoteURL(remote + "/u1.git"), options: SyncOptions(retry: .none))
        let tablet = try ProgressStore(home: home("tablet"), user: "u1", clock: ManualClock())

        phone.startSyncing(every: 300, options: SyncOptions(retry: .none))
        try tablet.put(
            .object(["attemptId": .string("t1"), "examId": .string("practice-1"), "status": .string("passed"), "score": .integer(70)]),
            at: "users/u1/examAttempts/t1")
        try await tablet.sync(SyncOptions(retry: .none))
        clock.advance(by: 0)  // the first round: at once
        #expect(try phone.list("users/u1/examAttempts") == ["t1"])
        try tablet.put(
            .object(["attemptId": .string("t2"), "examId": .string("practice-1"), "status": .string("passed"), "score": .integer(71)]),
            at: "users/u1/examAttempts/t2")
        try await tablet.sync(SyncOptions(retry: .none))
        clock.advance(by: 299)
        #expect(try phone.list("users/u1/examAttempts") == ["t1"])
        clock.advance(by: 1)
        #expect(try phone.list("users/u1/examAttempts") == ["t1", "t2"])
        phone.stopSyncing()
        #expect(clock.scheduledCount == 0)
    }

    /// An anonymous user's progress joins the signed-in account, explicitly; the anonymous
    /// store stays until the app deletes it, and is refused deletion while it holds progress
    /// found nowhere else.
    @Test func anAnonymousUsersProgressIsImportedThenDeleted() async throws {
        try home().createStore("anon-1", schemaSet: shippedSchemaSet("life-in-uk"))
        let anonymous = try ProgressStore(home: home(), user: "anon-1", clock: ManualClock())
        try anonymous.put(
            .object(["attemptId": .string("a1"), "examId": .string("practice-1"), "status": .string("passed"), "score": .integer(60)]),
            at: "users/anon-1/examAttempts/a1")
        let account = try open()
        let changes = account.changes()
        var seen = changes.makeAsyncIterator()
        let result = try await account.importProgress(of: "anon-1")
        #expect(result.documents == [try DocumentPath("users/u1/examAttempts/a1")])
        #expect(await seen.next() == [try DocumentPath("users/u1/examAttempts/a1")])
        #expect(try account.get("users/u1/examAttempts/a1")?.field("score") == .integer(60))
        #expect(try anonymous.list("users/anon-1/examAttempts") == ["a1"])
        #expect(try await account.importProgress(of: "anon-1").checkpoint == nil)
        #expect(throws: CairnError.self) { try home().deleteStore("anon-1") }
        try home().deleteStore("anon-1", force: true)
        #expect(!home().users().contains("anon-1"))
    }
}
