import CairnMerge

/// The documents of a benchmark store, generated from a seed so that every run, and both
/// sides of every comparison, hold the same bytes. Shaped like the progress of seed 000's
/// Life in the UK app: six in ten documents are completed exam attempts, the rest books read
/// section by section (24 sections each), plus 40 exams in progress and the exam summary.
struct Fixture {
    static let uid = "u1"
    static let inProgressExams = 40
    static let sections = 24

    let documents: Int

    var attempts: Int { documents * 6 / 10 }
    var books: Int { documents - attempts - Self.inProgressExams - 1 }

    /// Every document of the store, path (without `.json`) and content.
    func all() -> [(path: String, value: JSONValue)] {
        var rng = SplitMix(seed: UInt64(documents))
        var result: [(path: String, value: JSONValue)] = [Self.summary()]
        for number in 0..<Self.inProgressExams {
            result.append(Self.inProgress(number, stamp: 0, &rng))
        }
        for number in 0..<attempts {
            result.append(Self.attempt(number, &rng))
        }
        for number in 0..<books {
            result.append(Self.book(number, low: 0, high: 0))
        }
        return result
    }

    static func summary() -> (path: String, value: JSONValue) {
        (
            "users/\(uid)/progress/exam",
            .object([
                "schemaVersion": .integer(1), "examSummaries": .object([:]), "favorites": .object([:]),
            ])
        )
    }

    /// A completed attempt; numbers at or above the fixture's `attempts` are new ones.
    static func attempt(_ number: Int, _ rng: inout SplitMix) -> (path: String, value: JSONValue) {
        let id = "attempt-\(1_730_000_000_000 + number)"
        let questions = (0..<24).map { _ in "Q\(10_000 + Int(rng.next() % 900))" }
        var answers: JSONObject = [:]
        for question in questions {
            answers[question] = .array([.string(String(rng.next() % 4))])
        }
        let value = JSONValue.object([
            "schemaVersion": .integer(1), "attemptId": .string(id), "examId": .string("practice-\(number % 40)"),
            "status": .string(rng.next() % 10 < 7 ? "passed" : "failed"),
            "score": .integer(Int64(rng.next() % 101)), "totalQuestions": .integer(24),
            "correctAnswers": .integer(Int64(rng.next() % 25)), "timeSpentInSeconds": .integer(Int64(rng.next() % 2_700)),
            "questionIds": .array(questions.map { .string($0) }), "answers": .object(answers),
            "flaggedQuestions": .array(questions.prefix(Int(rng.next() % 3)).map { .string($0) }),
            "clientCreatedAt": .integer(1_730_000_000_000 + Int64(number)),
        ])
        return ("users/\(uid)/examAttempts/\(id)", value)
    }

    /// An exam in progress, as saved at `stamp`.
    static func inProgress(_ number: Int, stamp: Int, _ rng: inout SplitMix) -> (path: String, value: JSONValue) {
        let questions = (0..<24).map { _ in "Q\(10_000 + Int(rng.next() % 900))" }
        var answers: JSONObject = [:]
        for question in questions.prefix(Int(rng.next() % 24)) {
            answers[question] = .array([.string(String(rng.next() % 4))])
        }
        let value = JSONValue.object([
            "schemaVersion": .integer(1), "examId": .string("practice-\(number)"),
            "attemptId": .string("attempt-\(1_740_000_000_000 + number)"),
            "questionIds": .array(questions.map { .string($0) }), "answers": .object(answers),
            "currentQuestionIndex": .integer(Int64(rng.next() % 24)), "timeRemaining": .integer(Int64(rng.next() % 2_700)),
            "clientUpdatedAt": .integer(1_740_000_000_000 + Int64(stamp)),
        ])
        return ("users/\(uid)/examInProgress/practice-\(number)", value)
    }

    /// Book `number` as read on two devices: the first twelve sections as last marked at
    /// time `low`, the other twelve at time `high`. One device reads the first half, the
    /// other the second, so the merge of (low: a, high: 0) and (low: 0, high: b) is
    /// (low: a, high: b), sections merging by their `updatedAt`. The derived fields
    /// (`completedCount`, `lastSectionId`) are computed as the schema says.
    static func book(_ number: Int, low: Int, high: Int) -> (path: String, value: JSONValue) {
        var sections: JSONObject = [:]
        var completed = 0
        var latest = (key: "", time: Int64.min)
        for section in 0..<Self.sections {
            let stamp = section < Self.sections / 2 ? low : high
            var mix = SplitMix(seed: UInt64(number) &* 1_000_003 &+ UInt64(section) &* 7_919 &+ UInt64(stamp))
            let done = mix.next() % 3 != 0
            let time = 1_730_000_000_000 + Int64(stamp) * 1_000 + Int64(section)
            let key = section < 10 ? "s0\(section)" : "s\(section)"
            sections[key] = .object(["completed": .bool(done), "updatedAt": .integer(time)])
            if done { completed += 1 }
            if time > latest.time { latest = (key, time) }
        }
        let value = JSONValue.object([
            "schemaVersion": .integer(1), "bookId": .string("book-\(number)"), "sections": .object(sections),
            "completedCount": .integer(Int64(completed)), "lastSectionId": .string(latest.key),
            "updatedAt": .integer(1_730_000_000_000 + Int64(max(low, high)) * 1_000 + Int64(Self.sections - 1)),
        ])
        return ("users/\(uid)/books/book-\(number)", value)
    }
}
