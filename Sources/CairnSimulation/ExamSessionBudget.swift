import CairnCore
import CairnMerge
import CairnServer
import CairnSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Seed 000's exam session, played through a ``ProgressStore`` on a ``ManualClock``: 24
/// questions over 45 minutes, the app writing the in-progress exam locally on every answer
/// and every timer tick (the worst the seed warns of), the attempt and the summary on submit,
/// then a book section marked twice; a sync on submit and one when the app goes to the
/// background. It counts what reaches the remote, beside the seed's Firestore budgets.
public struct ExamSessionBudget: Sendable {
    /// What the session cost.
    public struct Report: Sendable {
        /// Local document writes (each a file written and renamed).
        public var localWrites = 0
        /// Commits the checkpoint policies made.
        public var checkpoints = 0
        /// Syncs that pushed.
        public var pushes = 0
        /// What the remote's repository grew by.
        public var bytesPushed = 0
        /// Firestore writes if every answer and tick were a write (seed 000 §10.1 "Bad").
        public var naiveWrites = 0
        /// The seed's recommended exam writes at most ("1–3 in-progress checkpoints, 1 attempt
        /// create on submit, 1 summary update on submit"), plus 1 per book mark.
        public var recommendedWrites = 0
    }

    public var questions = 24
    public var seconds = 2_700
    public var submitAt = 2_400

    public init() {}

    /// Plays the session in `folder` with the life-in-uk set's files.
    public func run(in folder: String, schemaSet: SchemaSetFiles) throws(CairnError) -> Report {
        var report = Report()
        _ = try Server.createRepositories(in: folder + "/server", uids: ["u1"], cairn: "cairn")
        let remote = folder + "/server/u1.git"
        let home = Home(root: folder + "/phone")
        let created = try home.createStore("u1", schemaSet: schemaSet)
        try created.setRemote(RemoteURL(remote))
        let options = SyncOptions(retry: .none)
        try created.sync(options)
        let clock = ManualClock()
        let store = try ProgressStore(home: home, user: "u1", clock: clock)
        let start = try commits(store)

        func sync() throws(CairnError) {
            let before = Self.size(of: remote + "/objects")
            let result = try store.withStore { store throws(CairnError) in try store.sync(options) }
            if result.pushedCommits > 0 { report.pushes += 1 }
            report.bytesPushed += Self.size(of: remote + "/objects") - before
        }

        var answers: JSONObject = [:]
        let questionIds = (0..<questions).map { "Q\(10_169 + $0)" }
        let answerTimes = Dictionary(uniqueKeysWithValues: (0..<questions).map { ((($0 + 1) * submitAt) / (questions + 1), $0) })
        for second in 0..<submitAt {
            clock.advance(by: 1)
            if let index = answerTimes[second] {
                answers[questionIds[index]] = .array([.string("\(index % 4)")])
            }
            try store.put(
                JSONValue.object([
                    "schemaVersion": .integer(1), "examId": .string("practice-1"), "attemptId": .string("attempt-1"),
                    "questionIds": .array(questionIds.map(JSONValue.string)), "answers": .object(answers),
                    "currentQuestionIndex": .integer(Int64(answers.count)), "timeRemaining": .integer(Int64(seconds - second)),
                    "timeSpentInSeconds": .integer(Int64(second)), "clientUpdatedAt": .integer(Int64(1_730_000_000_000 + second * 1000)),
                ]), at: "users/u1/examInProgress/practice-1")
            report.localWrites += 1
        }
        // Submit: the attempt (checkpointed at once), the summary, the resumable exam removed.
        try store.put(
            JSONValue.object([
                "schemaVersion": .integer(1), "attemptId": .string("attempt-1"), "examId": .string("practice-1"),
                "status": .string("passed"), "score": .integer(83), "totalQuestions": .integer(Int64(questions)),
                "correctAnswers": .integer(20), "timeSpentInSeconds": .integer(Int64(submitAt)),
                "questionIds": .array(questionIds.map(JSONValue.string)), "answers": .object(answers),
                "clientCreatedAt": .integer(1_730_000_000_000 + Int64(submitAt) * 1000),
            ]), at: "users/u1/examAttempts/attempt-1")
        try store.put(
            JSONValue.object([
                "schemaVersion": .integer(1),
                "examSummaries": .object([
                    "practice-1": .object([
                        "attemptCount": .integer(1), "bestScore": .integer(83), "lastAttemptId": .string("attempt-1"),
                        "lastScore": .integer(83), "lastStatus": .string("passed"), "lastCompletedAt": .string("2026-11-22T10:40:00Z"),
                    ])
                ]),
            ]), at: "users/u1/progress/exam")
        try store.delete("users/u1/examInProgress/practice-1")
        report.localWrites += 3
        clock.advance(by: 5)
        try sync()
        // Reading after the exam: a section marked, then marked again.
        for (offset, completed) in [(60, true), (70, false)] {
            clock.advance(by: Double(offset - (offset == 70 ? 60 : 0)))
            try store.put(
                JSONValue.object([
                    "schemaVersion": .integer(1), "bookId": .string("life-in-the-uk"),
                    "sections": .object(["s1": .object(["completed": .bool(completed), "updatedAt": .integer(Int64(submitAt + offset))])]),
                    "updatedAt": .integer(Int64(submitAt + offset)),
                ]), at: "users/u1/books/life-in-the-uk")
            report.localWrites += 1
        }
        clock.advance(by: 10)
        try sync()  // the app goes to the background
        report.checkpoints = try commits(store) - start
        report.naiveWrites = questions + submitAt + 2 + 2
        report.recommendedWrites = 3 + 1 + 1 + 2
        return report
    }

    private func commits(_ store: ProgressStore) throws(CairnError) -> Int {
        try store.withStore { store throws(CairnError) in try store.history().count }
    }

    /// The bytes of the files below `folder`.
    static func size(of folder: String) -> Int {
        var total = 0
        for name in FileSystem.names(in: folder) {
            let path = folder + "/" + name
            guard case .success(let status) = Syscalls.status(of: path, followingLinks: false) else { continue }
            switch status.kind {
            case .folder: total += size(of: path)
            case .file: total += status.size
            case .other: break
            }
        }
        return total
    }
}
