import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// The seeds' own testing matrices, played with the built `cairn` tool: devices are homes of
/// their own, each user's remote a bare repository made by `cairn server init` (a path
/// remote), and a device is offline when its remote is `http://127.0.0.1:9/…`, where nothing
/// listens. Every scenario ends with the devices and the remote on one tree.
@Suite(.historiesVerified) struct SeedScenarioTests {}

/// A JSON text parsed (the expected side of a comparison).
private func json(_ text: String) throws -> JSONValue {
    try JSONParser().parse(text)
}

/// The value at a path of keys in a document.
private func value(_ document: JSONValue?, _ keys: String...) -> JSONValue? {
    var current = document
    for key in keys { current = current?.field(key) }
    return current
}

/// True when a command failed with exactly one line on stderr.
private func failedWithOneLine(_ result: ProcessResult) -> Bool {
    result.status == 1 && result.stderr.hasPrefix("cairn: ") && result.stderr.hasSuffix("\n")
        && result.stderr.split(separator: "\n").count == 1
}

/// The lines of `cairn conflicts` for one document.
private func conflictLines(_ listing: String, about document: String) -> [String] {
    listing.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        .filter { $0.hasPrefix(document + " ") || $0.hasPrefix(document + "#") }
}

// MARK: - Seed 000: Life in the UK (§12 Testing Matrix)

extension SeedScenarioTests {
    /// Seed 000, "## 12) Testing Matrix (Manual + Automated)", "### Must-pass scenarios", on
    /// the `life-in-uk` schema set.
    @Suite struct LifeInUK {
        static func attempt(_ id: String, score: Int, status: String = "passed", at time: String = "2025-01-01T10:00:00Z") -> String {
            #"{"attemptId":"\#(id)","examId":"practice-1","status":"\#(status)","score":\#(score),"completedAt":"\#(time)","questionIds":["q1","q2"],"answers":{"q1":["a"],"q2":["b","c"]}}"#
        }

        /// A book's sections: (id, completed, updatedAt).
        static func book(_ sections: [(String, Bool, Int)], id: String = "life-in-the-uk") -> String {
            let entries = sections.map { #""\#($0.0)":{"completed":\#($0.1),"updatedAt":\#($0.2)}"# }.joined(separator: ",")
            let updated = sections.map(\.2).max() ?? 0
            return #"{"schemaVersion":1,"bookId":"\#(id)","sections":{\#(entries)},"updatedAt":\#(updated)}"#
        }

        static func summary(
            attempts: Int, best: Int, lastId: String, lastScore: Int, lastStatus: String, at time: String,
            favorites: [String], hidden: [String] = []
        ) -> String {
            let favorites = favorites.map { #""\#($0)":true"# }.joined(separator: ",")
            let hidden = hidden.map { #""\#($0)":true"# }.joined(separator: ",")
            return
                #"{"schemaVersion":1,"favorites":{\#(favorites)},"hiddenFromIncorrect":{\#(hidden)},"examSummaries":{"practice-1":{"attemptCount":\#(attempts),"bestScore":\#(best),"lastAttemptId":"\#(lastId)","lastStatus":"\#(lastStatus)","lastScore":\#(lastScore),"lastCompletedAt":"\#(time)"}}}"#
        }

        static func inProgress(_ index: Int, at time: Int) -> String {
            #"{"schemaVersion":1,"examId":"practice-2","attemptId":"attempt-p2","questionIds":["q1","q2","q3"],"answers":{"q1":["a"]},"flaggedQuestions":["q2"],"currentQuestionIndex":\#(index),"timeRemaining":1200,"clientUpdatedAt":\#(time)}"#
        }

        /// "1) **New device restore**: sign in → reading progress + exam summaries appear."
        @Test func newDeviceRestore() throws {
            let devices = try Devices(schema: "life-in-uk")
            try devices.start("phone")
            let documents = [
                "users/u1":
                    #"{"schemaVersion":1,"createdAt":"2025-01-01T09:00:00Z","lastSeenAt":"2025-01-02T09:00:00Z","device":{"platform":"ios"}}"#,
                "users/u1/books/life-in-the-uk": Self.book([("s1", true, 10), ("s2", true, 20), ("s3", false, 30)]),
                "users/u1/progress/exam": Self.summary(
                    attempts: 2, best: 83, lastId: "a2", lastScore: 75, lastStatus: "passed",
                    at: "2025-01-02T10:00:00Z", favorites: ["q7"], hidden: ["q9"]),
                "users/u1/examAttempts/a1": Self.attempt("a1", score: 83),
                "users/u1/examAttempts/a2": Self.attempt("a2", score: 75, at: "2025-01-02T10:00:00Z"),
                "users/u1/examInProgress/practice-2": Self.inProgress(1, at: 1_735_800_000_000),
            ]
            for (path, body) in documents { try devices.put("phone", path, body) }
            #expect(try devices.sync("phone").stdout.contains("pushed 1 checkpoint"))

            let restored = try devices.on("tablet", "clone", devices.remote(), user: nil)
            #expect(restored.status == 0, "\(restored.stderr)")
            #expect(restored.stdout.hasPrefix("Restored the store of user u1 from \(devices.remote())"), "\(restored.stdout)")
            #expect(restored.stdout.contains("(active): 6 documents"), "\(restored.stdout)")
            for path in documents.keys.sorted() {
                let onTablet = try devices.get("tablet", path)
                #expect(onTablet != nil, "\(path) restored")
                #expect(try onTablet == devices.get("phone", path), "\(path) restored as the phone has it")
            }
            // Reading progress with its computed fields, and the exam summary, as written.
            let book = try devices.get("tablet", "users/u1/books/life-in-the-uk")
            #expect(value(book, "completedCount") == .integer(2))
            #expect(value(book, "lastSectionId") == .string("s3"))
            let summary = try devices.get("tablet", "users/u1/progress/exam")
            #expect(value(summary, "examSummaries", "practice-1", "bestScore") == .integer(83))
            #expect(value(summary, "favorites", "q7") == .bool(true))
            #expect(try devices.ids("tablet", "users/u1/examAttempts") == ["a1", "a2"])
            #expect(try devices.on("tablet", "users", user: nil).stdout == "* u1\n")
            #expect(
                try devices.git("tablet", "log", "--format=%H") == devices.git("phone", "log", "--format=%H"), "the whole history restored")
            try devices.expectConverged(["phone", "tablet"])
        }

        /// "2) **Account switching**: user A signs out → user B signs in → user B does not see
        /// A’s progress."
        @Test func accountSwitching() throws {
            let devices = try Devices(schema: "life-in-uk", users: ["u1", "u2"])
            // User B's progress, made on another device.
            try devices.start("laptop", "u2")
            try devices.put("laptop", "users/u2/examAttempts/b1", Self.attempt("b1", score: 90), user: "u2")
            try devices.sync("laptop", "u2")

            // User A on the shared device, synced, then signs out and B signs in.
            try devices.start("shared", "u1")
            try devices.put("shared", "users/u1/examAttempts/a1", Self.attempt("a1", score: 70))
            try devices.put("shared", "users/u1/books/life-in-the-uk", Self.book([("s1", true, 10)]))
            try devices.sync("shared", "u1")
            let headOfA = try devices.git("shared", "rev-parse", "HEAD")
            let signedIn = try devices.on("shared", "clone", devices.remote("u2"), user: nil)
            #expect(signedIn.status == 0, "\(signedIn.stderr)")
            let switched = try devices.on("shared", "use", "u2", user: nil)
            #expect(switched.status == 0 && switched.stdout == "Active user: u2\n", "\(switched.stdout)\(switched.stderr)")
            #expect(try devices.on("shared", "users", user: nil).stdout == "  u1\n* u2\n")

            // B sees B's progress only; A's paths are refused with one line, nothing written.
            #expect(try devices.ids("shared", "users/u2/examAttempts", user: nil) == ["b1"])
            #expect(try devices.ids("shared", "users/u2/books", user: nil) == [])
            for arguments in [
                ["ls", "users/u1/examAttempts"], ["get", "users/u1/examAttempts/a1"],
                ["get", "users/u1/books/life-in-the-uk"], ["get", "users/u1"],
            ] {
                let refused = try runBounded(CLI.executable, ["--home", devices.home("shared")] + arguments)
                #expect(failedWithOneLine(refused), "\(arguments): \(refused.status) \(refused.stdout)\(refused.stderr)")
                #expect(refused.stderr.contains("outside the store of user u2"), "\(refused.stderr)")
                #expect(refused.stdout.isEmpty, "nothing of A shown: \(refused.stdout)")
            }
            let written = try runBounded(
                CLI.executable, ["--home", devices.home("shared"), "put", "users/u1/examAttempts/x"],
                input: Self.attempt("x", score: 10))
            #expect(failedWithOneLine(written), "\(written.stderr)")
            let filesOfB = try devices.git("shared", "ls-files", user: "u2").split(separator: "\n")
            #expect(
                !filesOfB.isEmpty && filesOfB.allSatisfy { $0.hasPrefix("users/u2") || $0.hasPrefix(".cairn/") || $0 == ".gitattributes" },
                "B's store holds B's files only: \(filesOfB)")
            #expect(!FileManager.default.fileExists(atPath: devices.store("shared", "u2") + "/users/u1"))

            // B's sync goes to B's remote, and nothing of A reaches it.
            try devices.put("shared", "users/u2/examAttempts/b2", Self.attempt("b2", score: 95), user: "u2")
            try devices.sync("shared", "u2")
            #expect(try devices.remoteFiles(under: "users", uid: "u2").allSatisfy { $0.hasPrefix("users/u2/") })
            #expect(
                try devices.remoteFiles(under: "users/u2/examAttempts", uid: "u2") == [
                    "users/u2/examAttempts/b1.json", "users/u2/examAttempts/b2.json",
                ])

            // `--user` reaches A for one command; the active user stays B.
            #expect(try devices.ids("shared", "users/u1/examAttempts", user: "u1") == ["a1"])
            #expect(try devices.on("shared", "users", user: nil).stdout == "  u1\n* u2\n")
            // A signs back in: A's progress, B's refused.
            #expect(try devices.on("shared", "use", "u1", user: nil).status == 0)
            #expect(try devices.ids("shared", "users/u1/examAttempts", user: nil) == ["a1"])
            #expect(failedWithOneLine(try runBounded(CLI.executable, ["--home", devices.home("shared"), "ls", "users/u2/examAttempts"])))
            #expect(try devices.git("shared", "rev-parse", "HEAD") == headOfA, "A's store untouched while B was signed in")
            try devices.sync("laptop", "u2")
            #expect(try devices.ids("laptop", "users/u2/examAttempts", user: "u2") == ["b1", "b2"])
            try devices.expectConverged(["shared"], uid: "u1")
            try devices.expectConverged(["shared", "laptop"], uid: "u2")
        }

        /// "3) **Offline usage**: do exam + mark sections → kill app → reopen offline → progress
        /// intact locally." Each round writes an attempt, the in-progress exam and a section
        /// (acknowledged), then kills a `put` of a large book and a `checkpoint` at a random
        /// moment; the device is offline throughout, and the sync after reconnecting pushes
        /// every acknowledged write.
        @Test func offlineUsageWithTheProcessKilled() throws {
            let devices = try Devices(schema: "life-in-uk")
            try devices.start("phone")
            try devices.setRemote("phone", Devices.offline)
            let big = Self.book((0..<4000).map { ("s\($0)", $0 % 3 == 0, $0) }, id: "big")
            let bigFile = devices.folder.path + "/big.json"
            try Data(big.utf8).write(to: URL(fileURLWithPath: bigFile))
            // How long a put of the large book takes here, to kill the others within it.
            let began = Date()
            try devices.put("phone", "users/u1/books/big-acknowledged", big)
            let putTime = Date().timeIntervalSince(began)

            var generator = SystemRandomNumberGenerator()
            var attempts: [String: String] = [:]
            var sections: [(String, Bool, Int)] = []
            var latestInProgress = ""
            var killedPuts = 0
            let rounds = 5
            for round in 0..<rounds {
                let path = "users/u1/examAttempts/a\(round)"
                attempts[path] = Self.attempt("a\(round)", score: 60 + round)
                try devices.put("phone", path, attempts[path]!)
                latestInProgress = Self.inProgress(round, at: 1_735_800_000_000 + round)
                try devices.put("phone", "users/u1/examInProgress/practice-2", latestInProgress)
                sections.append(("s\(round)", true, 100 + round))
                try devices.put("phone", "users/u1/books/life-in-the-uk", Self.book(sections))

                let put = try devices.launch("phone", ["put", "users/u1/books/big-\(round)", bigFile])
                usleep(UInt32.random(in: 0...UInt32(putTime * 1_200_000), using: &generator))
                put.send(SIGKILL)
                put.waitUntilExit()
                if put.terminationReason == .uncaughtSignal { killedPuts += 1 }
                let checkpoint = try devices.launch("phone", ["checkpoint", "-m", "Round \(round)"])
                usleep(UInt32.random(in: 0...40_000, using: &generator))
                checkpoint.send(SIGKILL)
                checkpoint.waitUntilExit()
                #expect(
                    try runProcess("/usr/bin/git", ["-C", devices.store("phone"), "fsck", "--no-dangling"]).status == 0,
                    "fsck after round \(round)")
            }
            #expect(killedPuts >= 1, "no put was killed while it ran (a put takes \(putTime) s)")

            // Reopened offline: the progress is intact locally, and the sync fails without loss.
            func expectIntact(_ read: (String) throws -> JSONValue?, _ place: String) throws {
                for (path, body) in attempts {
                    #expect(try read(path) == json(body), "\(path) \(place)")
                }
                #expect(try read("users/u1/examInProgress/practice-2") == json(latestInProgress), "in-progress exam \(place)")
                let book = try read("users/u1/books/life-in-the-uk")
                #expect(value(book, "sections")?.objectValue?.keys.sorted() == sections.map(\.0).sorted(), "sections \(place)")
                #expect(value(book, "completedCount") == .integer(Int64(rounds)), "completedCount \(place)")
                #expect(value(try read("users/u1/books/big-acknowledged"), "sections")?.objectValue?.count == 4000)
            }
            try expectIntact({ try devices.get("phone", $0) }, "on the phone after the kills")
            let offline = try devices.sync("phone", expecting: 75)
            #expect(offline.stderr.hasPrefix("cairn: cannot push to \(Devices.offline)"), "\(offline.stderr)")
            try expectIntact({ try devices.get("phone", $0) }, "on the phone after the failed sync")

            // Back online: one sync pushes everything acknowledged; a killed put left its book
            // whole or not at all.
            try devices.setRemote("phone", devices.remote())
            try devices.sync("phone")
            try expectIntact({ try devices.remoteDocument($0) }, "on the remote")
            for id in try devices.ids("phone", "users/u1/books") ?? [] where id.hasPrefix("big-") {
                #expect(value(try devices.remoteDocument("users/u1/books/\(id)"), "sections")?.objectValue?.count == 4000, "\(id) whole")
            }
            #expect(try runProcess("/usr/bin/git", ["-C", devices.store("phone"), "fsck", "--strict"]).status == 0)
            try devices.expectConverged(["phone"])
        }

        /// "4) **Delayed sync**: do progress offline → go online → checkpoint flush succeeds."
        /// Five checkpoints made offline over a day while the tablet pushed; one sync pushes
        /// them with the merge, in one push.
        @Test func delayedSync() throws {
            let devices = try Devices(schema: "life-in-uk")
            try devices.start("phone")
            try devices.clone("tablet")
            try devices.put("tablet", "users/u1/examAttempts/t1", Self.attempt("t1", score: 88))
            try devices.sync("tablet")
            let before = try devices.remoteCount()

            let checkpoints = 5
            var sections: [(String, Bool, Int)] = []
            for index in 1...checkpoints {
                sections.append(("s\(index)", true, 1_000 * index))
                try devices.put("phone", "users/u1/books/life-in-the-uk", Self.book(sections))
                try devices.put("phone", "users/u1/examAttempts/p\(index)", Self.attempt("p\(index)", score: 70 + index))
                let made = try devices.on("phone", "checkpoint", "-m", "Offline session \(index)")
                #expect(made.status == 0 && made.stdout.hasPrefix("Checkpoint "), "\(made.stdout)\(made.stderr)")
            }
            let waiting = try devices.on("phone", "status")
            #expect(waiting.stdout.contains("\(checkpoints) checkpoints not pushed"), "\(waiting.stdout)")
            #expect(try devices.remoteCount() == before, "nothing reached the remote while offline")

            let flushed = try devices.sync("phone", environment: ["CAIRN_LOG": "debug"])
            #expect(flushed.stdout.contains("merged"), "\(flushed.stdout)")
            #expect(flushed.stdout.contains("pushed \(checkpoints + 1) checkpoints"), "\(flushed.stdout)")
            let pushes = flushed.stderr.split(separator: "\n").filter { $0.hasSuffix("] push") }
            #expect(pushes.count == 1, "one push: \(flushed.stderr)")
            #expect(pushes.first?.contains("commits=\(checkpoints + 1) round=1") == true, "\(pushes)")
            #expect(try devices.remoteCount() == before + checkpoints + 1, "the checkpoints and the merge")
            let subjects = try devices.remoteGit("log", "--format=%s", "main").stdout
            for index in 1...checkpoints { #expect(subjects.contains("Offline session \(index)\n")) }
            #expect(try devices.on("phone", "status").stdout.contains("every checkpoint pushed"))

            #expect(try devices.sync("tablet").stdout.contains("fast-forwarded"))
            for device in ["phone", "tablet"] {
                #expect(try devices.ids(device, "users/u1/examAttempts") == ["p1", "p2", "p3", "p4", "p5", "t1"])
                #expect(value(try devices.get(device, "users/u1/books/life-in-the-uk"), "completedCount") == .integer(5))
            }
            try devices.expectConverged(["phone", "tablet"])
        }

        /// "5) **Conflict** (basic): device 1 and device 2 both update reading progress → merge
        /// behaves as expected." The book and the exam summary edited on both devices offline;
        /// the result follows the set's policies whichever device merges.
        @Test(arguments: [true, false]) func conflict(phoneSyncsFirst: Bool) throws {
            let devices = try Devices(schema: "life-in-uk")
            try devices.start("phone")
            try devices.put("phone", "users/u1/books/life-in-the-uk", Self.book([("s1", true, 10)]))
            try devices.put(
                "phone", "users/u1/progress/exam",
                Self.summary(
                    attempts: 1, best: 70, lastId: "a1", lastScore: 70, lastStatus: "failed", at: "2025-01-01T10:00:00Z", favorites: ["q1"])
            )
            try devices.put("phone", "users/u1/examAttempts/a1", Self.attempt("a1", score: 70, status: "failed"))
            try devices.sync("phone")
            try devices.clone("tablet")

            // The phone: a passed attempt (90), s1 read again, s2 read; q2 a favorite.
            try devices.put("phone", "users/u1/examAttempts/a2", Self.attempt("a2", score: 90, at: "2025-01-02T10:00:00Z"))
            try devices.put(
                "phone", "users/u1/progress/exam",
                Self.summary(
                    attempts: 2, best: 90, lastId: "a2", lastScore: 90, lastStatus: "passed", at: "2025-01-02T10:00:00Z",
                    favorites: ["q1", "q2"]))
            try devices.put("phone", "users/u1/books/life-in-the-uk", Self.book([("s1", true, 20), ("s2", true, 21)]))
            // The tablet, later: an attempt (80), s1 unmarked, s3 read; q3 a favorite, q9 hidden.
            try devices.put("tablet", "users/u1/examAttempts/b1", Self.attempt("b1", score: 80, at: "2025-01-03T10:00:00Z"))
            try devices.put(
                "tablet", "users/u1/progress/exam",
                Self.summary(
                    attempts: 2, best: 80, lastId: "b1", lastScore: 80, lastStatus: "passed", at: "2025-01-03T10:00:00Z",
                    favorites: ["q1", "q3"], hidden: ["q9"]))
            try devices.put("tablet", "users/u1/books/life-in-the-uk", Self.book([("s1", false, 30), ("s3", true, 15)]))

            let (first, second) = phoneSyncsFirst ? ("phone", "tablet") : ("tablet", "phone")
            try devices.sync(first)
            let merged = try devices.sync(second)
            #expect(merged.stdout.contains("merged") && merged.stdout.contains("conflicts decided"), "\(merged.stdout)")
            #expect(try devices.sync(first).stdout.contains("fast-forwarded"))

            let expectedSummary = try json(
                Self.summary(
                    attempts: 3, best: 90, lastId: "b1", lastScore: 80, lastStatus: "passed", at: "2025-01-03T10:00:00Z",
                    favorites: ["q1", "q2", "q3"], hidden: ["q9"]))
            let expectedBook = try json(
                #"{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s1":{"completed":false,"updatedAt":30},"s2":{"completed":true,"updatedAt":21},"s3":{"completed":true,"updatedAt":15}},"updatedAt":30,"completedCount":2,"lastSectionId":"s1"}"#
            )
            for device in ["phone", "tablet"] {
                #expect(
                    try devices.get(device, "users/u1/progress/exam") == expectedSummary,
                    "attempts add up (counter), the best score is kept (max), the last attempt is the later one (lww), favorites from both")
                #expect(
                    try devices.get(device, "users/u1/books/life-in-the-uk") == expectedBook,
                    "each section from the later edit, the counts computed again")
                #expect(try devices.ids(device, "users/u1/examAttempts") == ["a1", "a2", "b1"])
                let conflicts = try devices.on(device, "conflicts").stdout
                let book = conflictLines(conflicts, about: "users/u1/books/life-in-the-uk")
                #expect(
                    book.contains(
                        #"users/u1/books/life-in-the-uk#/sections/s1 [lww(updatedAt)] kept { "completed": false, "updatedAt": 30 }, replaced { "completed": true, "updatedAt": 20 }"#
                    ), "\(conflicts)")
                let exam = conflictLines(conflicts, about: "users/u1/progress/exam")
                #expect(
                    exam.contains {
                        $0.hasPrefix("users/u1/progress/exam#/examSummaries/practice-1 [lww(lastCompletedAt)] kept {")
                            && $0.contains(#"replaced { "#) && $0.contains(#""lastAttemptId": "a2""#)
                    },
                    "\(conflicts)")
                #expect(
                    exam.contains("users/u1/progress/exam#/examSummaries/practice-1/bestScore [max] kept 90, replaced 80"), "\(conflicts)")
            }
            try devices.expectConverged(["phone", "tablet"])
        }
    }
}

private extension Devices {
    func remoteCount() throws -> Int { try remoteCommitCount() }
}

// MARK: - Seed 001: EduMind.AI (§9.3 Manual Testing Scenarios)

extension SeedScenarioTests {
    /// Seed 001, "### 9.3 Manual Testing Scenarios", on the `edumind` schema set.
    @Suite struct EduMind {
        static let assessment = "algebra-quiz-1"

        static func response(_ question: String, id: String, answer: String, at time: Int, assessment: String = assessment) -> String {
            #"{"id":"\#(id)","student_id":"u1","assessment_id":"\#(assessment)","question_id":"\#(question)","response_data":{"answer":"\#(answer)","timeSpentMs":45000},"answered_at":\#(time),"synced":false,"sync_attempts":0}"#
        }

        static func queued(_ number: Int, responseId: String, at time: Int) -> String {
            #"{"id":\#(number),"operation_type":"upload_response","operation_data":{"response_id":"\#(responseId)"},"pending_response_id":"\#(responseId)","status":"pending","created_at":\#(time),"retry_count":0}"#
        }

        static func cached(downloadedAt: Int, completed: Bool) -> String {
            #"{"assessment_id":"\#(assessment)","assessment_version":"2","assessment_data":{"id":"\#(assessment)","title":"Algebra Quiz","questions":[{"id":"q-001"},{"id":"q-002"},{"id":"q-003"}]},"downloaded_at":\#(downloadedAt),"expires_at":\#(downloadedAt + 604_800),"size_bytes":120,"is_completed":\#(completed)}"#
        }

        /// "1. **Airplane Mode Test:** - Download assessment - Enable airplane mode - Complete
        /// assessment - Disable airplane mode - Verify sync"
        @Test func airplaneMode() throws {
            let devices = try Devices(schema: "edumind")
            try devices.start("phone")
            let cache = "users/u1/devices/phone/cached_assessments/\(Self.assessment)"
            try devices.put("phone", cache, Self.cached(downloadedAt: 1_698_364_800, completed: false))
            try devices.sync("phone")
            let online = try devices.remoteMain()

            try devices.setRemote("phone", Devices.offline)
            var written: [String: String] = [:]
            for (index, question) in ["q-001", "q-002", "q-003"].enumerated() {
                let id = "resp-\(index + 1)"
                written["users/u1/pending_responses/\(Self.assessment)_\(question)"] =
                    Self.response(question, id: id, answer: "\(index * 7)", at: 1_698_378_400_000 + index * 60_000)
                written["users/u1/devices/phone/sync_queue/\(index + 1)"] = Self.queued(
                    index + 1, responseId: id, at: 1_698_378_400 + index * 60)
            }
            written["users/u1/submitted_assessments/\(Self.assessment)"] =
                #"{"assessment_id":"\#(Self.assessment)","assessment_version":"2","student_id":"u1","submitted_at":1698378600000,"response_ids":["resp-1","resp-2","resp-3"]}"#
            written[cache] = Self.cached(downloadedAt: 1_698_364_800, completed: true)
            for (path, body) in written.sorted(by: { $0.key < $1.key }) { try devices.put("phone", path, body) }

            for _ in 0..<2 {
                let failed = try devices.sync("phone", expecting: 75)
                #expect(
                    failed.stderr.hasPrefix("cairn: cannot push to \(Devices.offline)")
                        && failed.stderr.split(separator: "\n").count == 1,
                    "\(failed.stderr)")
                let status = try devices.on("phone", "status").stdout
                #expect(status.contains("1 checkpoint not pushed") && status.contains("Nothing to checkpoint."), "\(status)")
                #expect(try devices.git("phone", "status", "--porcelain") == "")
                for (path, body) in written { #expect(try devices.get("phone", path) == json(body), "\(path) kept offline") }
            }
            #expect(try devices.remoteMain() == online, "nothing reached the remote in airplane mode")

            try devices.setRemote("phone", devices.remote())
            #expect(try devices.sync("phone").stdout.contains("pushed 1 checkpoint"))
            for (path, body) in written { #expect(try devices.remoteDocument(path) == json(body), "\(path) synced") }
            try devices.clone("tablet")
            #expect(
                try devices.ids("tablet", "users/u1/pending_responses") == [
                    "algebra-quiz-1_q-001", "algebra-quiz-1_q-002", "algebra-quiz-1_q-003",
                ])
            try devices.expectConverged(["phone", "tablet"])
        }

        /// "2. **Intermittent Connectivity:** - Start assessment online - Disconnect randomly
        /// during assessment - Reconnect randomly - Verify all responses synced". The phone
        /// answers ten questions, trying to sync after each on a connection that comes and
        /// goes; the tablet answers another assessment online meanwhile.
        @Test func intermittentConnectivity() throws {
            let devices = try Devices(schema: "edumind")
            try devices.start("phone")
            try devices.clone("tablet")
            let connected = [true, false, false, true, false, true, true, false, false, true]
            var expected: [String] = []
            for (index, online) in connected.enumerated() {
                try devices.setRemote("phone", online ? devices.remote() : Devices.offline)
                let question = String(format: "q-%03d", index + 1)
                let id = "resp-phone-\(index + 1)"
                try devices.put(
                    "phone", "users/u1/pending_responses/\(Self.assessment)_\(question)",
                    Self.response(question, id: id, answer: "\(index)", at: 1_698_378_400_000 + index * 60_000))
                try devices.put(
                    "phone", "users/u1/devices/phone/sync_queue/\(index + 1)",
                    Self.queued(index + 1, responseId: id, at: 1_698_378_400 + index * 60))
                expected.append("users/u1/pending_responses/\(Self.assessment)_\(question).json")
                try devices.sync("phone", expecting: online ? 0 : 75)
                if index % 3 == 1 {
                    let other = "q-t\(index)"
                    try devices.put(
                        "tablet", "users/u1/pending_responses/history-quiz_\(other)",
                        Self.response(
                            other, id: "resp-tablet-\(index)", answer: "t", at: 1_698_378_500_000 + index, assessment: "history-quiz"))
                    expected.append("users/u1/pending_responses/history-quiz_\(other).json")
                    try devices.sync("tablet")
                }
            }
            try devices.setRemote("phone", devices.remote())
            try devices.sync("phone")
            try devices.sync("tablet")

            // Every response on the remote, each added exactly once in its history.
            #expect(try devices.remoteFiles(under: "users/u1/pending_responses") == expected.sorted())
            let added = try devices.remoteGit(
                "log", "--diff-filter=A", "--name-only", "--format=", "main", "--", "users/u1/pending_responses"
            )
            .stdout.split(separator: "\n").map(String.init)
            #expect(added.sorted() == expected.sorted(), "each response added once: \(added)")
            var ids: [String] = []
            for file in expected {
                if case .string(let id)? = value(try devices.remoteDocument(String(file.dropLast(5))), "id") { ids.append(id) }
            }
            #expect(ids.count == expected.count && Set(ids).count == ids.count, "\(ids)")
            #expect(try devices.remoteFiles(under: "users/u1/devices/phone/sync_queue").count == connected.count)
            try devices.expectConverged(["phone", "tablet"])
        }

        /// "3. **Conflict Test:** - Download assessment - Modify assessment on server - Complete
        /// offline - Sync and handle conflict", played as the conflict §6.1 resolves by merging,
        /// "**Scenario 2: Duplicate Response** - Student answers question online - Network drops
        /// before sync completes - Student answers same question again offline - Both responses
        /// queued for sync", resolved by "Use last-write-wins (most recent `answered_at`)".
        @Test(arguments: [true, false]) func conflictDuplicateResponse(laterAnswerSyncsFirst: Bool) throws {
            let devices = try Devices(schema: "edumind")
            try devices.start("phone")
            try devices.put(
                "phone", "users/u1/devices/phone/cached_assessments/\(Self.assessment)",
                Self.cached(downloadedAt: 1_698_364_800, completed: false))
            try devices.sync("phone")
            try devices.clone("tablet")
            let path = "users/u1/pending_responses/\(Self.assessment)_q-002"
            let earlier = Self.response("q-002", id: "resp-7f3a", answer: "42", at: 1_698_378_100_000)
            let later = Self.response("q-002", id: "resp-2d41", answer: "84", at: 1_698_378_460_000)
            try devices.put("tablet", path, earlier)
            #expect(try devices.on("tablet", "checkpoint", "-m", "Answered q-002 (the network dropped)").status == 0)
            try devices.put("phone", path, later)

            let (first, second) = laterAnswerSyncsFirst ? ("phone", "tablet") : ("tablet", "phone")
            try devices.sync(first)
            let merged = try devices.sync(second)
            #expect(merged.stdout.contains("1 conflict decided"), "\(merged.stdout)")
            try devices.sync(first)
            for device in ["phone", "tablet"] {
                #expect(try devices.get(device, path) == json(later), "the most recent answered_at wins on \(device)")
                #expect(try devices.ids(device, "users/u1/pending_responses") == ["\(Self.assessment)_q-002"])
                let lines = conflictLines(try devices.on(device, "conflicts").stdout, about: path)
                #expect(lines.count == 1, "\(lines)")
                let line = lines.first ?? ""
                let kept = line.components(separatedBy: ", replaced ").first ?? ""
                let replaced = line.components(separatedBy: ", replaced ").last ?? ""
                #expect(kept.contains(#""answered_at": 1698378460000"#) && kept.contains(#""id": "resp-2d41""#), "\(line)")
                #expect(replaced.contains(#""answered_at": 1698378100000"#) && replaced.contains(#""id": "resp-7f3a""#), "\(line)")
            }
            try devices.expectConverged(["phone", "tablet"])
        }
    }
}

// MARK: - Seed 004: OYBC (Phase 3 testing)

extension SeedScenarioTests {
    /// Seed 004, "### Phase 3: Authentication & Sync Layer", its "**Testing**" lists, on the
    /// `oybc` schema set.
    @Suite struct OYBC {
        static let board = "users/u1/boards/week-47"

        static func board(version: Int, at time: String, name: String, description: String = "null") -> String {
            #"{"id":"week-47","userId":"u1","name":"\#(name)","description":\#(description),"status":"active","boardSize":3,"timeframe":"weekly","startDate":"2026-11-16T00:00:00Z","endDate":"2026-11-22T23:59:59Z","centerSquareType":"none","isRandomized":false,"totalTasks":0,"completedTasks":0,"completionPercentage":0,"linesCompleted":0,"createdAt":"2026-11-16T08:00:00Z","updatedAt":"\#(time)","version":\#(version),"isDeleted":false,"deletedAt":null}"#
        }

        static func task(_ id: String, title: String) -> String {
            #"{"id":"\#(id)","userId":"u1","type":"normal","title":"\#(title)","createdAt":"2026-11-16T08:00:00Z","updatedAt":"2026-11-16T08:00:00Z","version":1,"isDeleted":false}"#
        }

        static func square(_ task: String, position: Int, version: Int, at time: String, completed: Bool) -> String {
            #"{"id":"week-47-\#(task)","boardId":"week-47","taskId":"\#(task)","position":\#(position),"isCompleted":\#(completed),"completedAt":\#(completed ? "\"\(time)\"" : "null"),"createdAt":"2026-11-16T08:00:00Z","updatedAt":"\#(time)","version":\#(version),"isDeleted":false,"deletedAt":null}"#
        }

        /// Week 9's "**Testing**": "Create board on iOS (offline) → goes to sync_queue",
        /// "Connect to internet → sync processes → board appears in Firestore console",
        /// "Disconnect again → operations queue locally", "Reconnect → all operations sync";
        /// and week 10's "Create board on iOS → syncs to Firestore", "Pull on web → board appears".
        @Test func createOfflineThenReconnect() throws {
            let devices = try Devices(schema: "oybc")
            try devices.start("phone")
            try devices.setRemote("phone", Devices.offline)
            try devices.put("phone", Self.board, Self.board(version: 1, at: "2026-11-16T08:00:00Z", name: "Week 47"))
            for (index, title) in ["Run 5 km", "Meditate", "Read 20 pages"].enumerated() {
                try devices.put("phone", "users/u1/tasks/t\(index)", Self.task("t\(index)", title: title))
                try devices.put(
                    "phone", "\(Self.board)/boardTasks/t\(index)",
                    Self.square("t\(index)", position: index, version: 1, at: "2026-11-16T08:00:00Z", completed: false))
            }
            try devices.sync("phone", expecting: 75)
            #expect(try devices.on("phone", "status").stdout.contains("1 checkpoint not pushed"))
            #expect(try devices.remoteDocument(Self.board) == nil, "not on the server while offline")
            #expect(value(try devices.get("phone", Self.board), "totalTasks") == .integer(3), "the board counts its squares offline")

            try devices.setRemote("phone", devices.remote())
            try devices.sync("phone")
            let created = try devices.get("phone", Self.board)
            let onServer = try devices.remoteDocument(Self.board)
            #expect(created != nil && onServer == created, "the board is on the server")

            try devices.setRemote("phone", Devices.offline)
            try devices.put(
                "phone", "\(Self.board)/boardTasks/t1",
                Self.square("t1", position: 1, version: 2, at: "2026-11-17T07:00:00Z", completed: true))
            try devices.put("phone", Self.board, Self.board(version: 2, at: "2026-11-17T07:01:00Z", name: "Week 47: calm"))
            try devices.sync("phone", expecting: 75)
            #expect(value(try devices.remoteDocument(Self.board), "version") == .integer(1), "queued locally")

            try devices.setRemote("phone", devices.remote())
            try devices.sync("phone")
            try devices.clone("tablet")
            let pulled = try devices.get("tablet", Self.board)
            let onPhone = try devices.get("phone", Self.board)
            #expect(pulled != nil && pulled == onPhone, "the board appears on the other device")
            #expect(value(pulled, "name") == .string("Week 47: calm") && value(pulled, "version") == .integer(2))
            #expect(value(pulled, "completedTasks") == .integer(1) && value(pulled, "totalTasks") == .integer(3))
            #expect(
                value(try devices.get("tablet", "\(Self.board)/boardTasks/t1"), "isCompleted") == .bool(true), "the task shows completed")
            try devices.expectConverged(["phone", "tablet"])
        }

        /// One row of the conflict test: each device's edit of the board, and who should win.
        struct Edit: Sendable, CustomTestStringConvertible {
            var phone: (version: Int, at: String)
            var tablet: (version: Int, at: String)
            var winner: String
            var testDescription: String {
                "phone v\(phone.version) at \(phone.at), tablet v\(tablet.version) at \(tablet.at): \(winner) wins"
            }
        }

        static let edits = [
            Edit(phone: (3, "2026-11-17T06:00:00Z"), tablet: (2, "2026-11-17T21:00:00Z"), winner: "phone"),
            Edit(phone: (2, "2026-11-17T21:00:00Z"), tablet: (4, "2026-11-17T07:00:00Z"), winner: "tablet"),
            Edit(phone: (2, "2026-11-17T08:00:00Z"), tablet: (2, "2026-11-17T09:00:00Z"), winner: "tablet"),
            Edit(phone: (5, "2026-11-17T10:00:00Z"), tablet: (5, "2026-11-17T09:59:59Z"), winner: "phone"),
        ]

        /// Week 10's "**Conflict test**: Edit same board on both devices offline → reconnect →
        /// higher version wins" (the set's `highest: version`, ties by `then: updatedAt`), and
        /// the decision is listed.
        @Test(arguments: edits) func conflictHigherVersionWins(edit: Edit) throws {
            let devices = try Devices(schema: "oybc")
            try devices.start("phone")
            try devices.put("phone", Self.board, Self.board(version: 1, at: "2026-11-16T08:00:00Z", name: "Week 47"))
            for index in 0..<2 {
                try devices.put("phone", "users/u1/tasks/t\(index)", Self.task("t\(index)", title: "Task \(index)"))
                try devices.put(
                    "phone", "\(Self.board)/boardTasks/t\(index)",
                    Self.square("t\(index)", position: index, version: 1, at: "2026-11-16T08:00:00Z", completed: false))
            }
            try devices.sync("phone")
            try devices.clone("tablet")
            for device in ["phone", "tablet"] { try devices.setRemote(device, Devices.offline) }
            let edits = ["phone": edit.phone, "tablet": edit.tablet]
            for (device, change) in edits {
                try devices.put(
                    device, Self.board,
                    Self.board(version: change.version, at: change.at, name: "Week 47 (\(device))", description: "\"by \(device)\""))
                try devices.sync(device, expecting: 75)
            }
            for device in ["phone", "tablet"] { try devices.setRemote(device, devices.remote()) }
            try devices.sync("phone")
            let merged = try devices.sync("tablet")
            #expect(merged.stdout.contains("1 conflict decided"), "\(merged.stdout)")
            try devices.sync("phone")

            let loser = edit.winner == "phone" ? "tablet" : "phone"
            let winning = edits[edit.winner]!
            for device in ["phone", "tablet"] {
                let board = try devices.get(device, Self.board)
                #expect(value(board, "name") == .string("Week 47 (\(edit.winner))"), "\(device)")
                #expect(value(board, "description") == .string("by \(edit.winner)"))
                #expect(value(board, "version") == .integer(Int64(winning.version)))
                #expect(value(board, "updatedAt") == .string(winning.at))
                #expect(value(board, "totalTasks") == .integer(2), "the stats counted again")
                let lines = conflictLines(try devices.on(device, "conflicts").stdout, about: Self.board)
                #expect(lines.count == 1, "\(lines)")
                let line = lines.first ?? ""
                #expect(line.hasPrefix("\(Self.board) [highest(version, then updatedAt)] kept {"), "\(line)")
                let parts = line.components(separatedBy: ", replaced ")
                #expect(parts.count == 2 && parts[0].contains("(\(edit.winner))") && parts[1].contains("(\(loser))"), "\(line)")
            }
            try devices.expectConverged(["phone", "tablet"])
        }
    }
}

// MARK: - Seed 002: Remi (TODO #7 and the recommended unit tests)

extension SeedScenarioTests {
    /// Seed 002, "#### TODO #7: Add Schema Validation Tests" and "## 🧪 RECOMMENDED UNIT
    /// TESTS" (the suites that apply to stored documents), on the `remi` schema set.
    @Suite struct Remi {
        static let rose = "+447700900123"
        static let joe = "+15551234567"

        static let user =
            #"{"id":"u1","email":"user@example.com","fullName":"John Doe","phoneNumber":"+15550001111","createdAt":"2025-10-03T12:00:00Z","isOnboardingComplete":true,"subscriptionStatus":"active","quizAnswers":{"q1":"answer1"}}"#

        static func profile(_ phone: String, id: String? = nil, name: String = "Grandma Rose") -> String {
            #"{"id":"\#(id ?? phone)","userId":"u1","name":"\#(name)","phoneNumber":"\#(phone)","relationship":"Grandmother","isEmergencyContact":false,"timeZone":"America/New_York","status":"confirmed","createdAt":"2025-10-03T12:00:00Z","confirmedAt":"2025-10-03T12:15:00Z"}"#
        }

        static func habit(_ id: String, profile: String, completions: Int = 0, next: String = "2025-10-04T09:00:00Z") -> String {
            #"{"id":"\#(id)","userId":"u1","profileId":"\#(profile)","title":"Take Morning Medication","category":"medication","frequency":"daily","scheduledTime":"2025-10-03T09:00:00Z","customDays":["monday","wednesday"],"status":"active","createdAt":"2025-10-03T12:00:00Z","completionCount":\#(completions),"nextScheduledDate":"\#(next)"}"#
        }

        static func message(_ id: String, profile: String, habit: String) -> String {
            #"{"id":"\#(id)","taskId":"\#(habit)","profileId":"\#(profile)","userId":"u1","textResponse":"Done!","isCompleted":true,"receivedAt":"2025-10-03T09:05:00Z","responseType":"text"}"#
        }

        /// A user with Rose (three habits, two messages) and Joe (one habit), pushed.
        fileprivate static func family(_ devices: Devices, on device: String) throws {
            try devices.put(device, "users/u1", user)
            try devices.put(device, "users/u1/profiles/\(rose)", profile(rose))
            for habit in ["habit1", "habit2", "habit3"] {
                try devices.put(device, "users/u1/profiles/\(rose)/habits/\(habit)", self.habit(habit, profile: rose, completions: 1))
            }
            for (index, message) in ["msg-1", "msg-2"].enumerated() {
                try devices.put(
                    device, "users/u1/profiles/\(rose)/messages/\(message)",
                    self.message(message, profile: rose, habit: "habit\(index + 1)"))
            }
            try devices.put(device, "users/u1/profiles/\(joe)", profile(joe, name: "Grandpa Joe"))
            try devices.put(device, "users/u1/profiles/\(joe)/habits/habit-bp", habit("habit-bp", profile: joe))
        }

        /// Test Suite 1, "testProfileIDNormalizesPhoneNumber" / TODO #7 "testProfileIDUsesPhoneNumber"
        /// ("Create profile // Assert ID == normalized phone"), with the contract's "`phoneNumber`
        /// → Required, E.164 format (+1XXXXXXXXXX)" and "`profileId` → MUST match parent profile
        /// document ID"; and IDs that are never file names: `..`, `.git`, `GIT~1`, control characters.
        @Test func ids() throws {
            let devices = try Devices(schema: "remi")
            try devices.start("phone")
            try devices.put("phone", "users/u1", Self.user)
            try devices.put("phone", "users/u1/profiles/\(Self.joe)", Self.profile(Self.joe))
            let habitID = "9B2D6C4E-3F1A-4E8B-A7C5-1D2E3F4A5B6C"  // "testHabitIDIsUUID"
            try devices.put("phone", "users/u1/profiles/\(Self.joe)/habits/\(habitID)", Self.habit(habitID, profile: Self.joe))
            #expect(try devices.on("phone", "checkpoint").status == 0)
            #expect(try devices.ids("phone", "users/u1/profiles") == [Self.joe])
            #expect(value(try devices.get("phone", "users/u1/profiles/\(Self.joe)"), "id") == .string(Self.joe))
            let head = try devices.git("phone", "rev-parse", "HEAD")

            let uuid = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"
            let refusedBySchema: [(path: String, body: String, saying: String)] = [
                (
                    "users/u1/profiles/\(uuid)", Self.profile(Self.rose, id: uuid),
                    "breaks its schema (profile.schema.json) at {phone}: the ID \"\(uuid)\" does not match"
                ),
                (
                    "users/u1/profiles/555-123-4567", Self.profile("555-123-4567"),
                    "breaks its schema (profile.schema.json) at {phone}: the ID \"555-123-4567\""
                ),
                ("users/u1/profiles/\(Self.rose)", Self.profile(Self.rose, id: uuid), "breaks its schema (profile.schema.json) at /id"),
                (
                    "users/u1/profiles/\(Self.rose)", Self.profile("07700900123", id: Self.rose),
                    "breaks its schema (profile.schema.json) at /phoneNumber"
                ),
                (
                    "users/u1/profiles/\(Self.joe)/habits/h2", Self.habit("h2", profile: uuid),
                    "breaks its schema (habit.schema.json) at /profileId"
                ),
                (
                    "users/u1/profiles/\(Self.joe)/messages/m1", Self.message("m1", profile: "555-123-4567", habit: habitID),
                    "breaks its schema (message.schema.json) at /profileId"
                ),
                ("users/u2", Self.user, "outside the store of user u1"),
            ]
            for refused in refusedBySchema {
                let result = try devices.on("phone", "put", refused.path, input: refused.body)
                #expect(failedWithOneLine(result), "\(refused.path): \(result.status) \(result.stderr)")
                #expect(result.stderr.contains(refused.saying), "\(result.stderr)")
            }
            for id in ["..", ".", ".git", "GIT~1", "git~1", ".Git", "__profile__", "a\u{1}b", "tab\there", "x.json"] {
                for path in ["users/u1/profiles/\(id)", "users/u1/profiles/\(id)/habits/h1", "users/u1/profiles/\(Self.joe)/habits/\(id)"] {
                    let result = try devices.on("phone", "put", path, input: Self.habit("h1", profile: Self.joe))
                    #expect(failedWithOneLine(result), "\(path.debugDescription): \(result.status) \(result.stderr)")
                    #expect(result.stderr.contains("invalid ID") && result.stderr.hasSuffix("nothing was changed\n"), "\(result.stderr)")
                }
            }
            // Nothing of it reached the store.
            #expect(try devices.ids("phone", "users/u1/profiles") == [Self.joe])
            #expect(try devices.ids("phone", "users/u1/profiles/\(Self.joe)/habits") == [habitID])
            #expect(try devices.on("phone", "status").stdout.contains("Nothing to checkpoint."))
            #expect(try devices.git("phone", "status", "--porcelain", "--ignored") == "")
            #expect(try devices.git("phone", "rev-parse", "HEAD") == head)
            try devices.sync("phone")
            try devices.expectConverged(["phone"])
        }

        /// The contract's "**Document ID Rule:**" for profiles under the set's Option A: a
        /// profile filed under a UUID (Option B) is refused, whatever its `id` field says. The
        /// set's README says "UUID profile IDs (Option B) are refused".
        @Test func idsAProfileFiledUnderAUUIDIsRefused() throws {
            let devices = try Devices(schema: "remi")
            try devices.start("phone")
            let path = "users/u1/profiles/3F2504E0-4F89-41D3-9A0C-0305E82C3301"
            let result = try devices.on("phone", "put", path, input: Self.profile(Self.rose))
            #expect(
                failedWithOneLine(result),
                "put \(path) with an E.164 id field: status \(result.status), stderr \(result.stderr.debugDescription)")
            #expect(
                result.stderr.contains("at {phone}: the ID \"3F2504E0-4F89-41D3-9A0C-0305E82C3301\" does not match"), "\(result.stderr)")
            #expect(try devices.ids("phone", "users/u1/profiles") == [])
        }

        /// Test Suite 2, "testProfilePathIsNested" (`users/user123/profiles/+15551234567`) and
        /// "testHabitPathIsDoublyNested" (`users/user123/profiles/+15551234567/habits`); messages
        /// beside habits ("SMS under profile").
        @Test func nestedPaths() throws {
            let devices = try Devices(schema: "remi")
            try devices.start("phone")
            try Self.family(devices, on: "phone")
            try devices.sync("phone")
            let files = try devices.remoteFiles(under: "users").sorted()
            #expect(
                files == [
                    "users/u1.json",
                    "users/u1/profiles/+15551234567.json",
                    "users/u1/profiles/+15551234567/habits/habit-bp.json",
                    "users/u1/profiles/+447700900123.json",
                    "users/u1/profiles/+447700900123/habits/habit1.json",
                    "users/u1/profiles/+447700900123/habits/habit2.json",
                    "users/u1/profiles/+447700900123/habits/habit3.json",
                    "users/u1/profiles/+447700900123/messages/msg-1.json",
                    "users/u1/profiles/+447700900123/messages/msg-2.json",
                ], "\(files)")
            #expect(try devices.ids("phone", "users/u1/profiles") == [Self.joe, Self.rose])
            #expect(try devices.ids("phone", "users/u1/profiles/\(Self.rose)/habits") == ["habit1", "habit2", "habit3"])
            #expect(try devices.ids("phone", "users/u1/profiles/\(Self.rose)/messages") == ["msg-1", "msg-2"])
            let user = try devices.get("phone", "users/u1")
            #expect(value(user, "profileCount") == .integer(2) && value(user, "taskCount") == .integer(4), "\(String(describing: user))")
            try devices.expectConverged(["phone"])
        }

        /// Test Suite 3, "testDeletingProfileDeletesAllHabits" and TODO #7
        /// "testCascadeDeleteRemovesAllSubcollections" ("Create user → profile → habits →
        /// messages // Delete profile // Assert all subcollections deleted"), with the user's
        /// "`profileCount` → Auto-updated when profiles added/removed" and "`taskCount` →
        /// Auto-updated when tasks added/removed".
        @Test func cascadeDelete() throws {
            let devices = try Devices(schema: "remi")
            try devices.start("phone")
            try Self.family(devices, on: "phone")
            try devices.sync("phone")
            try devices.clone("tablet")

            let plain = try devices.on("phone", "rm", "users/u1/profiles/\(Self.rose)")
            #expect(failedWithOneLine(plain) && plain.stderr.contains("use rm -r"), "\(plain.stderr)")
            let removed = try devices.on("phone", "rm", "-r", "users/u1/profiles/\(Self.rose)")
            #expect(removed.status == 0 && removed.stdout == "Removed 6 documents\n", "\(removed.stdout)\(removed.stderr)")
            for device in ["phone"] {
                #expect(try devices.ids(device, "users/u1/profiles") == [Self.joe])
                #expect(try devices.ids(device, "users/u1/profiles/\(Self.rose)/habits") == [])
                #expect(try devices.ids(device, "users/u1/profiles/\(Self.rose)/messages") == [])
                #expect(try devices.get(device, "users/u1/profiles/\(Self.rose)") == nil)
                let user = try devices.get(device, "users/u1")
                #expect(value(user, "profileCount") == .integer(1) && value(user, "taskCount") == .integer(1))
            }
            #expect(!FileManager.default.fileExists(atPath: devices.store("phone") + "/users/u1/profiles/\(Self.rose)"))
            #expect(!FileManager.default.fileExists(atPath: devices.store("phone") + "/users/u1/profiles/\(Self.rose).json"))

            try devices.sync("phone")
            #expect(try devices.sync("tablet").stdout.contains("fast-forwarded"))
            #expect(try devices.remoteFiles(under: "users/u1/profiles/\(Self.rose)") == [])
            #expect(!FileManager.default.fileExists(atPath: devices.store("tablet") + "/users/u1/profiles/\(Self.rose)"))
            #expect(value(try devices.get("tablet", "users/u1"), "taskCount") == .integer(1))
            #expect(try devices.ids("tablet", "users/u1/profiles/\(Self.joe)/habits") == ["habit-bp"])
            try devices.expectConverged(["phone", "tablet"])
        }

        /// TODO #7 "testNoOrphanedDocuments", in the hard case: device A deletes Rose's
        /// profile with its subcollections while device B, offline, records a completion of
        /// one of her habits. After both sync the habit is kept and her profile is back (a
        /// `cascade` decision), so no habit is left without its profile, and both converge.
        @Test(arguments: [true, false]) func noOrphans(deletingDeviceSyncsFirst: Bool) throws {
            let devices = try Devices(schema: "remi")
            try devices.start("phone")
            try Self.family(devices, on: "phone")
            try devices.sync("phone")
            try devices.clone("tablet")

            #expect(try devices.on("phone", "rm", "-r", "users/u1/profiles/\(Self.rose)").status == 0)
            let changed = Self.habit("habit1", profile: Self.rose, completions: 2, next: "2025-10-05T09:00:00Z")
            try devices.put("tablet", "users/u1/profiles/\(Self.rose)/habits/habit1", changed)

            let (first, second) = deletingDeviceSyncsFirst ? ("phone", "tablet") : ("tablet", "phone")
            try devices.sync(first)
            let merged = try devices.sync(second)
            #expect(merged.stdout.contains("merged"), "\(merged.stdout)")
            try devices.sync(first)

            for device in ["phone", "tablet"] {
                #expect(try devices.ids(device, "users/u1/profiles") == [Self.joe, Self.rose], "\(device): the profile is back")
                #expect(try devices.get(device, "users/u1/profiles/\(Self.rose)") == json(Self.profile(Self.rose)))
                #expect(
                    try devices.ids(device, "users/u1/profiles/\(Self.rose)/habits") == ["habit1"],
                    "the changed habit kept, the others deleted")
                #expect(try devices.get(device, "users/u1/profiles/\(Self.rose)/habits/habit1") == json(changed))
                #expect(try devices.ids(device, "users/u1/profiles/\(Self.rose)/messages") == [])
                let user = try devices.get(device, "users/u1")
                #expect(
                    value(user, "profileCount") == .integer(2) && value(user, "taskCount") == .integer(2),
                    "\(device): \(String(describing: user))")
                let conflicts = try devices.on(device, "conflicts").stdout
                #expect(
                    conflictLines(conflicts, about: "users/u1/profiles/\(Self.rose)").contains {
                        $0.hasPrefix("users/u1/profiles/\(Self.rose) [cascade] kept {") && $0.hasSuffix("replaced (deleted)")
                    }, "\(conflicts)")
                // No document without its parent, in the whole tree.
                let files = try devices.git(device, "ls-tree", "-r", "--name-only", "HEAD", "users").split(separator: "\n").map(String.init)
                for file in files where file != "users/u1.json" {
                    let parent = (file as NSString).deletingLastPathComponent
                    let parentDocument = (parent as NSString).deletingLastPathComponent + ".json"
                    #expect(files.contains(parentDocument), "\(device): \(file) has no parent \(parentDocument)")
                }
            }
            try devices.expectConverged(["phone", "tablet"])
        }
    }
}
