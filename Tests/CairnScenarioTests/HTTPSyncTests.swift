import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The tool against real smart-HTTP git servers on 127.0.0.1 (lighttpd running `git
/// http-backend` as CGI, and nginx passing it requests through fcgiwrap; basic auth per user,
/// the repositories made by `cairn server init` with Cairn's hook): devices converge through
/// each, only the owner reaches a repository, and what the hook refuses reaches the device as
/// one line, at once. The stories that depend on the server run against both.
@Suite(.serialized, .historiesVerified) struct HTTPSyncTests {
    static let passwords = ["u1": "p@ss-1", "u2": "p@ss-2"]
    /// Cairn's own retry schedule, for the syncs that must not retry a refusal.
    static let defaultRetry = "5,30,300"

    /// Why the served repositories could not be made.
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    /// Per-user bare repositories made by `cairn server init`, served over HTTP.
    final class Served {
        let folder = TemporaryFolder("cairn-http-repos")
        let server: any GitServer
        var root: String { folder.path + "/repos" }

        /// `kind`: the web server. `schema`: the schema set the hook checks pushed documents
        /// against (none: the set each store carries). `access`: whom the web server lets
        /// reach a repository. `maxRequestKilobytes`: the largest request body it takes.
        init(
            _ kind: GitServerKind = .lighttpd, schema: String? = nil, access: GitServerAccess = .owner,
            maxRequestKilobytes: Int = 102_400
        ) throws {
            let root = folder.path + "/repos"
            let created = try runBounded(CLI.executable, ["server", "init", root, "u1", "u2"] + (schema.map { ["--schema", $0] } ?? []))
            guard created.status == 0 else {
                throw SetupError(description: "cairn server init failed: \(created.stderr)")
            }
            server = try kind.start(
                root: root, users: HTTPSyncTests.passwords, access: access,
                maxRequestKilobytes: maxRequestKilobytes)
        }

        func url(_ uid: String, user: String? = nil, password: String? = nil) -> String {
            server.url(for: uid, user: user, password: password)
        }

        /// The commit the server's `main` of `uid` points at ("" when it has none).
        func main(_ uid: String) throws -> String {
            try runBounded("/usr/bin/git", ["--git-dir", root + "/\(uid).git", "rev-parse", "--verify", "-q", "refs/heads/main"])
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// One device: a home of its own. The tool runs there without any credentials from the
    /// test's environment, with network retries off (or Cairn's own schedule, `retrying`),
    /// and with the password given (if any) in `CAIRN_PASSWORD`, as a user's shell would.
    final class Device {
        let name: String
        let retrying: Bool
        let cli = CLI()
        var home: String { cli.home }

        init(_ name: String = "device", retrying: Bool = false) {
            self.name = name
            self.retrying = retrying
        }

        @discardableResult
        func callAsFunction(_ arguments: String..., input: String? = nil, password: String? = nil) throws -> ProcessResult {
            try run(arguments, input: input, password: password)
        }

        /// Runs the tool as `callAsFunction` does, and says how long it took.
        func timed(_ arguments: String..., password: String? = nil) throws -> (result: ProcessResult, seconds: Double) {
            let started = Date()
            let result = try run(arguments, input: nil, password: password)
            return (result, Date().timeIntervalSince(started))
        }

        private func run(_ arguments: [String], input: String?, password: String?) throws -> ProcessResult {
            var environment = password.map { ["CAIRN_PASSWORD": $0] } ?? [:]
            if retrying {
                environment["CAIRN_SYNC_RETRY"] = HTTPSyncTests.defaultRetry
            }
            return try runBounded(CLI.executable, ["--home", home] + arguments, input: input, environment: environment)
        }

        /// Runs `git -C HOME/UID ARGS…`. A commit made so breaks a rule on purpose: the audit
        /// at the end of the test leaves its findings out.
        @discardableResult
        func git(_ arguments: String..., uid: String = "u1") throws -> ProcessResult {
            let result = try runBounded("/usr/bin/git", ["-C", home + "/" + uid] + arguments)
            if arguments.contains("commit") {
                HistoriesVerified.exemptHead(
                    of: home + "/" + uid,
                    because: "a commit plain git makes in these tests breaks a rule on purpose, for the hook or the device to refuse")
            }
            return result
        }

        func head(_ uid: String = "u1") throws -> String {
            try git("rev-parse", "HEAD", uid: uid).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func tree(_ uid: String = "u1") throws -> String {
            try git("rev-parse", "HEAD^{tree}", uid: uid).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func attempts() throws -> [String] {
            try self("ls", "users/u1/examAttempts").stdout.split(separator: "\n").map(String.init)
        }

        /// The book `b1` as the store reads it (empty when it has none).
        func book() throws -> [String: Any] {
            let result = try self("get", "users/u1/books/b1")
            guard result.status == 0 else { return [:] }
            return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
        }

        /// Marks one section of the book as this device's reader left it, keeping the rest of
        /// the book as this device knows it: what an app does on every page turn.
        func touchBook(section: String, completed: Bool, at time: Int) throws -> ProcessResult {
            var book = try book()
            var sections = book["sections"] as? [String: Any] ?? [:]
            sections[section] = ["completed": completed, "updatedAt": time]
            book["schemaVersion"] = 1
            book["bookId"] = "b1"
            book["sections"] = sections
            book["updatedAt"] = max(book["updatedAt"] as? Int ?? 0, time)
            book["completedCount"] = nil
            book["lastSectionId"] = nil
            let data = try JSONSerialization.data(withJSONObject: book, options: [.sortedKeys])
            return try self("put", "users/u1/books/b1", input: String(decoding: data, as: UTF8.self))
        }

        /// Every byte of the store's git configuration, to show no password is kept there.
        func gitConfig(_ uid: String = "u1") throws -> String {
            try String(contentsOfFile: home + "/" + uid + "/.git/config", encoding: .utf8)
        }
    }

    static func attempt(_ id: String, score: Int = 80) -> String {
        #"{"attemptId":"\#(id)","examId":"practice-1","status":"passed","score":\#(score)}"#
    }

    static func book(_ sections: [String: Int]) -> String {
        let entries = sections.keys.sorted().map { #""\#($0)":{"completed":true,"updatedAt":\#(sections[$0]!)}"# }
        return
            #"{"schemaVersion":1,"bookId":"b1","sections":{\#(entries.joined(separator: ","))},"updatedAt":\#(sections.values.max() ?? 0)}"#
    }

    /// Whether `stderr` is exactly one line starting `cairn: `.
    static func isOneLine(_ stderr: String) -> Bool {
        stderr.hasPrefix("cairn: ") && stderr.hasSuffix("\n") && stderr.dropLast().firstIndex(of: "\n") == nil
    }

    /// Two devices of u1 meet only through the server: A creates the store and pushes it, B
    /// restores it with `cairn clone`; both add their own exam attempt and read different
    /// sections of the same book offline; A syncs, B syncs (merging A's work under the
    /// policies), A syncs again (fast-forward). Both then hold the same tree, which is the
    /// server's, with every attempt and both sections; the password given in the URL was used
    /// and never stored, and the server logged no failed login (the user name is sent only
    /// with the password).
    @Test(.runningTime(atMost: .seconds(180)), arguments: GitServerKind.allCases)
    func twoDevicesConvergeThroughTheServer(_ kind: GitServerKind) throws {
        let served = try Served(kind)
        defer { served.server.stop() }
        let password = Self.passwords["u1"]!
        let url = served.url("u1", user: "u1", password: password)
        let a = Device("A")
        let b = Device("B")

        let created = try a("init", "u1", "--schema", "life-in-uk", "--remote", url)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(!created.stdout.contains(password))
        #expect(try a("put", "users/u1/examAttempts/a1", input: Self.attempt("a1")).status == 0)
        #expect(try a("put", "users/u1/books/b1", input: Self.book(["s1": 10])).status == 0)
        // The URL's password was for init only: sync takes it from CAIRN_PASSWORD.
        let first = try a("sync", "-q", password: password)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try served.main("u1") == a.head())

        let cloned = try b("--user", "u1", "clone", url)
        #expect(cloned.status == 0, "\(cloned.stderr)")
        #expect(cloned.stdout.hasPrefix("Restored the store of user u1 from "), "\(cloned.stdout)")
        #expect(!cloned.stdout.contains(password))
        #expect(try b("get", "users/u1/examAttempts/a1").stdout.contains("\"score\": 80"))
        #expect(try b.head() == a.head())

        // Offline on both: a new attempt each, and each device reads its own section.
        #expect(try a("put", "users/u1/examAttempts/a2", input: Self.attempt("a2", score: 90)).status == 0)
        #expect(try a("put", "users/u1/books/b1", input: Self.book(["s1": 10, "s2": 20])).status == 0)
        #expect(try b("put", "users/u1/examAttempts/a3", input: Self.attempt("a3", score: 70)).status == 0)
        #expect(try b("put", "users/u1/books/b1", input: Self.book(["s1": 10, "s3": 30])).status == 0)

        for (device, step) in [(a, "A pushes first"), (b, "B merges A's work and pushes"), (a, "A fast-forwards")] {
            let synced = try device("sync", "-q", password: password)
            #expect(synced.status == 0, "\(step): \(synced.stderr)")
        }

        #expect(try a.tree() == b.tree())
        #expect(try a.head() == b.head())
        #expect(try served.main("u1") == a.head())
        for device in [a, b] {
            #expect(try device.attempts() == ["a1", "a2", "a3"], "attempts on \(device.name)")
            let book = try device.book()
            let sections = book["sections"] as? [String: Any] ?? [:]
            #expect(sections.keys.sorted() == ["s1", "s2", "s3"], "sections on \(device.name): \(book)")
            #expect(book["completedCount"] as? Int == 3, "completedCount on \(device.name): \(book)")
            #expect(book["lastSectionId"] as? String == "s3", "lastSectionId on \(device.name): \(book)")
            #expect(try device.git("status", "--porcelain").stdout == "", "clean working tree on \(device.name)")
            let remote = try device.git("config", "remote.origin.url").stdout
            #expect(remote == "http://u1@127.0.0.1:\(served.server.port)/git/u1.git\n", "remote on \(device.name)")
            #expect(try !device.gitConfig().contains(password), "no password in .git/config on \(device.name)")
            #expect(try !device.gitConfig().contains("p%40ss"), "no encoded password in .git/config on \(device.name)")
            #expect(try device("status").stdout.contains("every checkpoint pushed"), "status on \(device.name)")
        }

        // Nothing stored the password: without CAIRN_PASSWORD the sync says what to give.
        let bare = try a("sync", "-q")
        #expect(bare.status == 1, "\(bare.stderr)")
        #expect(Self.isOneLine(bare.stderr), "\(bare.stderr)")
        #expect(bare.stderr.contains("CAIRN_PASSWORD"), "\(bare.stderr)")
        #expect(served.server.failedLogins == 0, "\(served.server.errorLog)")
    }

    /// Four devices that worked offline sync at the same moment: the server takes one push at
    /// a time (its compare-and-swap on main), the others fetch, merge and push again, and in
    /// the end nothing any device wrote is missing anywhere.
    @Test(.runningTime(atMost: .seconds(180)), arguments: GitServerKind.allCases)
    func devicesSyncingAtOnceLoseNothing(_ kind: GitServerKind) throws {
        let served = try Served(kind)
        defer { served.server.stop() }
        let password = Self.passwords["u1"]!
        let url = served.url("u1", user: "u1")
        let first = Device("first")
        #expect(try first("init", "u1", "--schema", "life-in-uk", "--remote", url).status == 0)
        #expect(try first("sync", "-q", password: password).status == 0)
        let devices = (1...4).map { Device("d\($0)") }
        for (number, device) in devices.enumerated() {
            #expect(try device("clone", url, password: password).status == 0)
            for index in 0..<2 {
                #expect(
                    try device("put", "users/u1/examAttempts/d\(number)-\(index)", input: Self.attempt("d\(number)-\(index)")).status == 0)
            }
        }
        let homes = devices.map(\.home)
        let statuses = Mutex([Int32](repeating: -1, count: homes.count))
        DispatchQueue.concurrentPerform(iterations: homes.count) { index in
            let synced = try? runBounded(
                CLI.executable, ["--home", homes[index], "sync", "-q"],
                environment: ["CAIRN_PASSWORD": password])
            statuses.withLock { $0[index] = synced?.status ?? -2 }
        }
        #expect(statuses.withLock { $0 } == [0, 0, 0, 0])
        for device in devices + [first] {
            #expect(try device("sync", "-q", password: password).status == 0)
        }
        let expected = (0..<4).flatMap { number in (0..<2).map { "d\(number)-\($0)" } }.sorted()
        for device in devices + [first] {
            #expect(try device.tree() == first.tree(), "\(device.name)")
            #expect(try device.attempts() == expected, "\(device.name)")
        }
        #expect(try served.main("u1") == first.head())
    }

    /// Three devices of u1 work in rounds: in each, every device writes an attempt of its own
    /// and marks its own section of the shared book, then the devices sync in an order drawn
    /// from a seeded generator (so many interleavings of pushes, merges and fast-forwards
    /// occur). After a last round in which every device syncs twice, all three hold the same
    /// tree as the server, with every attempt and every device's latest section.
    @Test(.runningTime(atMost: .seconds(180))) func threeDevicesInShuffledOrderConverge() throws {
        let served = try Served()
        defer { served.server.stop() }
        let password = Self.passwords["u1"]!
        let url = served.url("u1", user: "u1", password: password)
        let seed: UInt64 = 0xCA1A_2025
        var random = SplitMix(seed: seed)
        let devices = [Device("A"), Device("B"), Device("C")]

        #expect(try devices[0]("init", "u1", "--schema", "life-in-uk", "--remote", url).status == 0)
        #expect(try devices[0]("sync", "-q", password: password).status == 0)
        for device in devices.dropFirst() {
            let cloned = try device("--user", "u1", "clone", url)
            #expect(cloned.status == 0, "clone on \(device.name): \(cloned.stderr)")
        }

        var expectedAttempts: [String] = []
        var latest: [String: (completed: Bool, time: Int)] = [:]
        var time = 100
        for round in 1...3 {
            for device in devices {
                let id = "r\(round)-\(device.name)"
                expectedAttempts.append(id)
                #expect(try device("put", "users/u1/examAttempts/\(id)", input: Self.attempt(id, score: 50 + round * 10)).status == 0)
                time += 1
                let completed = (round + device.name.count) % 2 == 0
                let touched = try device.touchBook(section: "s-\(device.name)", completed: completed, at: time)
                #expect(touched.status == 0, "book on \(device.name), round \(round): \(touched.stderr)")
                latest["s-\(device.name)"] = (completed, time)
            }
            let order = devices.shuffled(using: &random)
            for device in order {
                let synced = try device("sync", "-q", password: password)
                #expect(
                    synced.status == 0, "seed \(seed), round \(round), order \(order.map(\.name)): sync on \(device.name): \(synced.stderr)"
                )
            }
        }
        for device in devices + devices {
            let synced = try device("sync", "-q", password: password)
            #expect(synced.status == 0, "seed \(seed), final round: sync on \(device.name): \(synced.stderr)")
        }

        let trees = try devices.map { try $0.tree() }
        #expect(Set(trees).count == 1, "seed \(seed): trees \(trees)")
        #expect(try served.main("u1") == devices[0].head(), "seed \(seed)")
        for device in devices {
            #expect(try device.attempts() == expectedAttempts.sorted(), "seed \(seed): attempts on \(device.name)")
            let sections = try device.book()["sections"] as? [String: [String: Any]] ?? [:]
            for (section, value) in latest {
                #expect(sections[section]?["updatedAt"] as? Int == value.time, "seed \(seed): \(section) on \(device.name): \(sections)")
                #expect(
                    sections[section]?["completed"] as? Bool == value.completed, "seed \(seed): \(section) on \(device.name): \(sections)")
            }
            #expect(try device.git("status", "--porcelain").stdout == "", "seed \(seed): clean working tree on \(device.name)")
        }
    }

    /// Who reaches a repository: for u1.git and u2.git, each of the owner with the right
    /// password, the other (valid) user, an anonymous client and the owner with a wrong
    /// password, tries to fetch (`cairn clone`) and to push (`cairn sync` from a store of that
    /// user whose remote carries those credentials). Only the owner gets through; everyone
    /// else gets one `cairn: ` line saying which credentials to give and exit status 1 at once
    /// (with Cairn's retry schedule on, whose first wait is 5 s), a refused clone leaves no
    /// store behind, and a refused push leaves the server's main as it was. The server logs a
    /// failed login for the refused credentials only, never for the owner or the anonymous
    /// client.
    @Test(.runningTime(atMost: .seconds(180)), arguments: GitServerKind.allCases)
    func onlyTheOwnerFetchesAndPushes(_ kind: GitServerKind) throws {
        let served = try Served(kind)
        defer { served.server.stop() }

        struct Case {
            var story: String
            var user: String?
            var password: String?
            var allowed: Bool

            /// What the refusal tells the user: give credentials, or check the ones given.
            var hint: String {
                user.map { "refused the credentials of \($0): check CAIRN_USERNAME and CAIRN_PASSWORD" }
                    ?? "it asks for credentials: set CAIRN_USERNAME and CAIRN_PASSWORD"
            }
        }

        for owner in ["u1", "u2"] {
            let other = owner == "u1" ? "u2" : "u1"
            let right = Self.passwords[owner]!
            // The owner's first device creates the store on the server, and a second one
            // (the pusher) restores it: its pushes try every case's credentials.
            let first = Device("first \(owner)")
            #expect(
                try first("init", owner, "--schema", "life-in-uk", "--remote", served.url(owner, user: owner, password: right)).status == 0)
            #expect(try first("--user", owner, "put", "users/\(owner)/examAttempts/seed", input: Self.attempt("seed")).status == 0)
            let seeded = try first("--user", owner, "sync", "-q", password: right)
            #expect(seeded.status == 0, "seeding \(owner).git: \(seeded.stderr)")
            let pusher = Device("pusher \(owner)", retrying: true)
            let restored = try pusher("--user", owner, "clone", served.url(owner, user: owner, password: right))
            #expect(restored.status == 0, "restoring \(owner) for the pushes: \(restored.stderr)")

            let cases = [
                Case(
                    story: "\(other), a valid user, on the repository of \(owner)", user: other, password: Self.passwords[other],
                    allowed: false),
                Case(story: "an anonymous client on the repository of \(owner)", user: nil, password: nil, allowed: false),
                Case(story: "\(owner) with a wrong password", user: owner, password: "not-\(right)", allowed: false),
                Case(story: "\(owner), the owner, with the right password", user: owner, password: right, allowed: true),
            ]
            for (index, access) in cases.enumerated() {
                let failedLogins = served.server.failedLogins
                // Fetch: a clone on a fresh device, the credentials in the URL.
                let device = Device("clone \(index)", retrying: true)
                let before = try served.main(owner)
                let (clone, cloneSeconds) = try device.timed(
                    "--user", owner, "clone", served.url(owner, user: access.user, password: access.password))
                let exists = FileManager.default.fileExists(atPath: device.home + "/" + owner)
                if access.allowed {
                    #expect(clone.status == 0, "clone by \(access.story) must succeed: \(clone.stderr)")
                    #expect(exists, "clone by \(access.story) must create the store")
                    #expect(try device.head(owner) == before, "clone by \(access.story) must restore the server's main")
                } else {
                    #expect(clone.status == 1, "clone by \(access.story) must be refused with status 1: \(clone.status) \(clone.stderr)")
                    #expect(Self.isOneLine(clone.stderr), "clone by \(access.story) must say why in one line: \(clone.stderr)")
                    #expect(
                        clone.stderr.contains("CAIRN_PASSWORD") || clone.stderr.contains("credentials"),
                        "clone by \(access.story) must name the credentials to give: \(clone.stderr)")
                    #expect(clone.stderr.contains(access.hint), "clone by \(access.story) must say \(access.hint): \(clone.stderr)")
                    #expect(
                        !clone.stderr.contains("p@ss") && !clone.stderr.contains("p%40ss"),
                        "clone by \(access.story) must not show the password: \(clone.stderr)")
                    #expect(!exists, "a refused clone by \(access.story) must leave no store behind")
                    #expect(cloneSeconds < 5, "a refused clone by \(access.story) must not be retried: \(cloneSeconds) s")
                }

                // Push: the pusher's store, its remote set to these credentials (the user in
                // the URL, the password in CAIRN_PASSWORD), with one new attempt to send.
                let id = "push-\(index)"
                #expect(try pusher("--user", owner, "put", "users/\(owner)/examAttempts/\(id)", input: Self.attempt(id)).status == 0)
                let set = try pusher("--user", owner, "remote", "set", served.url(owner, user: access.user))
                #expect(set.status == 0, "remote set for \(access.story): \(set.stderr)")
                let (push, pushSeconds) = try pusher.timed("--user", owner, "sync", "-q", password: access.password)
                if access.allowed {
                    #expect(push.status == 0, "push by \(access.story) must succeed: \(push.stderr)")
                    #expect(try served.main(owner) == pusher.head(owner), "push by \(access.story) must move the server's main")
                    #expect(
                        try pusher("--user", owner, "ls", "users/\(owner)/examAttempts").stdout
                            == ((0...index).map { "push-\($0)" } + ["seed"]).joined(separator: "\n") + "\n")
                } else {
                    #expect(push.status == 1, "push by \(access.story) must be refused with status 1: \(push.status) \(push.stderr)")
                    #expect(Self.isOneLine(push.stderr), "push by \(access.story) must say why in one line: \(push.stderr)")
                    #expect(
                        push.stderr.contains("CAIRN_PASSWORD") || push.stderr.contains("credentials"),
                        "push by \(access.story) must name the credentials to give: \(push.stderr)")
                    #expect(push.stderr.contains(access.hint), "push by \(access.story) must say \(access.hint): \(push.stderr)")
                    #expect(try served.main(owner) == before, "a refused push by \(access.story) must leave the server's main alone")
                    #expect(pushSeconds < 5, "a refused push by \(access.story) must not be retried: \(pushSeconds) s")
                }
                if let password = access.password {
                    #expect(try !pusher.gitConfig(owner).contains(password), "no password stored after \(access.story)")
                }
                // The server logs a failed login for refused credentials only, never for a
                // user name sent without its password.
                let refusedLogin = access.user != nil && !access.allowed
                #expect(
                    (served.server.failedLogins > failedLogins) == refusedLogin,
                    "failed logins after \(access.story): \(failedLogins) -> \(served.server.failedLogins)\n\(served.server.errorLog)")
            }
        }
    }

    /// The server's hook has the last word, and its refusal reaches the device: an attempt
    /// changed with plain git behind Cairn's back is refused as append-only, and a new attempt
    /// with a score over 100 as breaking its schema. Each refusal is one `cairn: ` line naming
    /// the document, with exit status 1 at once (Cairn's retry schedule is on: a refusal is
    /// not retried); the device keeps its commit (HEAD as before the sync) and the server's
    /// main does not move.
    @Test(.runningTime(atMost: .seconds(180)), arguments: GitServerKind.allCases)
    func hookRefusalsReachTheDevice(_ kind: GitServerKind) throws {
        let served = try Served(kind, schema: "life-in-uk")
        defer { served.server.stop() }
        let password = Self.passwords["u1"]!
        let url = served.url("u1", user: "u1", password: password)
        let a = Device("A", retrying: true)
        let b = Device("B", retrying: true)
        #expect(try a("init", "u1", "--schema", "life-in-uk", "--remote", url).status == 0)
        #expect(try a("put", "users/u1/examAttempts/a1", input: Self.attempt("a1")).status == 0)
        let first = try a("sync", "-q", password: password)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try b("--user", "u1", "clone", url).status == 0)
        let published = try served.main("u1")
        #expect(published == (try a.head()))

        // Plain git changes the recorded score of a1.
        let file = a.home + "/u1/users/u1/examAttempts/a1.json"
        let original = try String(contentsOfFile: file, encoding: .utf8)
        #expect(original.contains("\"score\": 80"), "\(original)")
        try original.replacingOccurrences(of: "\"score\": 80", with: "\"score\": 95").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try a.git("-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-am", "Raise the score").status == 0)
        let edited = try a.head()
        let (changed, changedSeconds) = try a.timed("sync", "-q", password: password)
        #expect(changed.status == 1, "\(changed.status) \(changed.stderr)")
        #expect(changedSeconds < 5, "a refusal is not retried: \(changedSeconds) s")
        #expect(Self.isOneLine(changed.stderr), "\(changed.stderr)")
        #expect(changed.stderr.contains("append-only"), "\(changed.stderr)")
        #expect(changed.stderr.contains("users/u1/examAttempts/a1"), "\(changed.stderr)")
        #expect(try a.head() == edited, "the refused commit stays on the device")
        #expect(try served.main("u1") == published)
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("\"score\": 95"))

        // Plain git adds an attempt whose score breaks the schema (at most 100).
        let added = b.home + "/u1/users/u1/examAttempts/a2.json"
        try original.replacingOccurrences(of: "\"score\": 80", with: "\"score\": 120")
            .replacingOccurrences(of: "\"a1\"", with: "\"a2\"")
            .write(toFile: added, atomically: true, encoding: .utf8)
        #expect(try b.git("add", "users/u1/examAttempts/a2.json").status == 0)
        #expect(try b.git("-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "-m", "Add a2").status == 0)
        let committed = try b.head()
        let (broken, brokenSeconds) = try b.timed("sync", "-q", password: password)
        #expect(broken.status == 1, "\(broken.status) \(broken.stderr)")
        #expect(brokenSeconds < 5, "a refusal is not retried: \(brokenSeconds) s")
        #expect(Self.isOneLine(broken.stderr), "\(broken.stderr)")
        #expect(broken.stderr.contains("breaks its schema"), "\(broken.stderr)")
        #expect(broken.stderr.contains("users/u1/examAttempts/a2"), "\(broken.stderr)")
        #expect(try b.head() == committed, "the refused commit stays on the device")
        #expect(try served.main("u1") == published)
    }

    /// The web server passes the authenticated user to the hook (`REMOTE_USER`): on a server
    /// that lets every user with a right password into every repository, u2 restores u1's
    /// store with u2's own credentials, but a push of theirs to u1.git is refused by the hook
    /// alone — one line naming both users, exit status 1 at once, the server's main as it
    /// was — while u1's push through the same server goes in.
    @Test(.runningTime(atMost: .seconds(180)), arguments: GitServerKind.allCases)
    func theHookSeesWhoPushes(_ kind: GitServerKind) throws {
        let served = try Served(kind, access: .anyUser)
        defer { served.server.stop() }
        let owner = Device("u1's phone", retrying: true)
        let intruder = Device("u2's laptop", retrying: true)
        #expect(try owner("init", "u1", "--schema", "life-in-uk", "--remote", served.url("u1", user: "u1")).status == 0)
        #expect(try owner("put", "users/u1/examAttempts/a1", input: Self.attempt("a1")).status == 0)
        let first = try owner("sync", "-q", password: Self.passwords["u1"]!)
        #expect(first.status == 0, "\(first.stderr)\n\(served.server.errorLog)")
        let published = try served.main("u1")
        #expect(published == (try owner.head()))

        let cloned = try intruder("--user", "u1", "clone", served.url("u1", user: "u2"), password: Self.passwords["u2"]!)
        #expect(cloned.status == 0, "the web server lets u2 read u1.git: \(cloned.stderr)")
        #expect(try intruder("put", "users/u1/examAttempts/forged", input: Self.attempt("forged", score: 100)).status == 0)
        let (pushed, seconds) = try intruder.timed("sync", "-q", password: Self.passwords["u2"]!)
        #expect(pushed.status == 1, "\(pushed.status) \(pushed.stderr)")
        #expect(Self.isOneLine(pushed.stderr), "\(pushed.stderr)")
        #expect(pushed.stderr.contains("user u2 may not push to the progress of u1"), "\(pushed.stderr)")
        #expect(seconds < 5, "a refusal is not retried: \(seconds) s")
        #expect(try served.main("u1") == published)

        #expect(try owner("put", "users/u1/examAttempts/a2", input: Self.attempt("a2")).status == 0)
        let second = try owner("sync", "-q", password: Self.passwords["u1"]!)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try served.main("u1") == owner.head())
        #expect(try owner.attempts() == ["a1", "a2"])
    }

    /// A push larger than the server takes (its limit on a request's size) is the server's
    /// rule, not a passing failure: with Cairn's retry schedule on, the sync exits 1 at once
    /// with one line naming HTTP 413 and the setting to raise, and the server's main does not
    /// move. Served again with a larger limit, the same store syncs as it is.
    @Test(.runningTime(atMost: .seconds(180)), arguments: GitServerKind.allCases)
    func aPushLargerThanTheServerTakesIsRefusedAtOnce(_ kind: GitServerKind) throws {
        let served = try Served(kind, maxRequestKilobytes: 64)
        defer { served.server.stop() }
        let password = Self.passwords["u1"]!
        let device = Device("A", retrying: true)
        #expect(try device("init", "u1", "--remote", served.url("u1", user: "u1")).status == 0)
        // About 160 KB of notes that do not compress (the pack deflates them).
        var random = SplitMix(seed: 413)
        for note in 0..<40 {
            let bytes = (0..<3_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let text = Data(bytes).base64EncodedString()
            #expect(try device("put", "users/u1/notes/n\(note)", input: #"{"text":"\#(text)"}"#).status == 0)
        }
        let (refused, seconds) = try device.timed("sync", "-q", password: password)
        #expect(refused.status == 1, "\(refused.status) \(refused.stderr)\n\(served.server.errorLog)")
        #expect(Self.isOneLine(refused.stderr), "\(refused.stderr)")
        #expect(refused.stderr.contains("(HTTP 413)"), "\(refused.stderr)")
        #expect(refused.stderr.contains(kind == .nginx ? "client_max_body_size" : "server.max-request-size"), "\(refused.stderr)")
        #expect(seconds < 5, "a refusal is not retried: \(seconds) s")
        #expect(try served.main("u1") == "")

        let larger = try kind.start(root: served.root, users: Self.passwords)
        defer { larger.stop() }
        #expect(try device("remote", "set", larger.url(for: "u1", user: "u1")).status == 0)
        let synced = try device("sync", "-q", password: password)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try served.main("u1") == device.head())
        #expect(try device("ls", "users/u1/notes").stdout.split(separator: "\n").count == 40)
    }

    /// `cairn status` tells how many checkpoints wait for the next sync: one after a put and a
    /// checkpoint, none once the sync pushed it.
    @Test(.runningTime(atMost: .seconds(180))) func statusCountsCheckpointsNotPushed() throws {
        let served = try Served()
        defer { served.server.stop() }
        let password = Self.passwords["u1"]!
        let a = Device("A")
        #expect(try a("init", "u1", "--schema", "life-in-uk", "--remote", served.url("u1", user: "u1", password: password)).status == 0)
        #expect(try a("sync", "-q", password: password).status == 0)
        #expect(try a("status").stdout.contains("every checkpoint pushed"))

        #expect(try a("put", "users/u1/examAttempts/a1", input: Self.attempt("a1")).status == 0)
        #expect(try a("checkpoint").status == 0)
        let waiting = try a("status").stdout
        #expect(waiting.contains("Remote http://u1@127.0.0.1:\(served.server.port)/git/u1.git: 1 checkpoint not pushed"), "\(waiting)")

        let synced = try a("sync", "-q", password: password)
        #expect(synced.status == 0, "\(synced.stderr)")
        let pushed = try a("status").stdout
        #expect(pushed.contains("every checkpoint pushed"), "\(pushed)")
        #expect(!pushed.contains("not pushed"), "\(pushed)")
        #expect(try served.main("u1") == a.head())
    }

    /// Once the server has asked for the password, every later request of the sync carries
    /// it, as git does after its first challenge: one 401 a sync, not one per connection
    /// (the fetch's, the push's).
    @Test(.runningTime(atMost: .seconds(180))) func aSyncIsAskedForItsPasswordOnce() throws {
        let served = try Served()
        defer { served.server.stop() }
        let server = try #require(served.server as? GitHTTPServer)
        let password = Self.passwords["u1"]!
        let a = Device("A")
        #expect(try a("init", "u1", "--schema", "life-in-uk", "--remote", served.url("u1", user: "u1")).status == 0)
        #expect(try a("put", "users/u1/examAttempts/a1", input: Self.attempt("a1")).status == 0)
        #expect(try a("checkpoint").status == 0)
        // Nothing above reached the server: every request it logs is the sync's.
        let synced = try a("sync", "-q", password: password)
        #expect(synced.status == 0, "\(synced.stderr)")
        let requests = server.requests { $0.hasPrefix("200 POST") && $0.contains("git-receive-pack") }
        #expect(requests.filter { $0.hasPrefix("401 ") }.count == 1, "\(requests.joined(separator: "\n"))")
        // The fetch and the push each happened.
        #expect(
            requests.contains { $0.hasPrefix("200 POST") && $0.contains("git-upload-pack") }
                || requests.contains { $0.hasPrefix("200 GET") && $0.contains("service=git-upload-pack") })
        #expect(requests.contains { $0.hasPrefix("200 POST") && $0.contains("git-receive-pack") }, "\(requests.joined(separator: "\n"))")
        #expect(try served.main("u1") == a.head())

        // The store remembers that the server asks, in git's own setting for its URL and
        // user, and the next sync — another process — sends the password from its first
        // request: no 401 at all.
        let url = served.url("u1", user: "u1")
        let settings = try a.git("config", "--list").stdout
        #expect(settings.contains("http.\(url).proactiveauth=basic"), "\(settings)")
        #expect(try a("put", "users/u1/examAttempts/a2", input: Self.attempt("a2")).status == 0)
        #expect(try a("checkpoint").status == 0)
        let before = server.requests { _ in true }.count
        let again = try a("sync", "-q", password: password)
        #expect(again.status == 0, "\(again.stderr)")
        var second: [String] = []
        for _ in 0..<100 {
            second = Array(server.requests { _ in true }.dropFirst(before))
            if second.contains(where: { $0.hasPrefix("200 POST") && $0.contains("git-receive-pack") }) { break }
            usleep(100_000)
        }
        #expect(!second.isEmpty && second.allSatisfy { $0.hasPrefix("200 ") }, "\(second.joined(separator: "\n"))")
        #expect(try served.main("u1") == a.head())
        // Its only news were its own, so it pushed first: the push's advertisement, then the
        // push, and no fetch.
        #expect(
            second.count == 2 && second[0].contains("GET") && second[0].contains("service=git-receive-pack")
                && second[1].contains("POST") && second[1].contains("git-receive-pack"),
            "\(second.joined(separator: "\n"))")

        // A sync with nothing to do asks once: the ref advertisement, answered 200, and no
        // push. A request of the test's own, after it, marks the end of the sync's lines.
        let settled = server.requests { _ in true }.count
        let idle = try a("sync", "-q", password: password)
        #expect(idle.status == 0, "\(idle.stderr)")
        let marker = "/after-the-idle-sync"
        _ = try runBounded("/usr/bin/curl", ["-s", "-o", "/dev/null", "http://127.0.0.1:\(server.port)\(marker)"])
        let idleRequests = Array(server.requests { $0.contains(marker) }.dropFirst(settled).prefix { !$0.contains(marker) })
        #expect(
            idleRequests.count == 1 && idleRequests.allSatisfy { $0.hasPrefix("200 GET") && $0.contains("service=git-upload-pack") },
            "\(idleRequests.joined(separator: "\n"))")
    }

    /// git's own `http.proactiveAuth`, set by the user, sends the password from a store's
    /// very first request.
    @Test(.runningTime(atMost: .seconds(180))) func gitsProactiveAuthSendsThePasswordFromTheFirstRequest() throws {
        let served = try Served()
        defer { served.server.stop() }
        let server = try #require(served.server as? GitHTTPServer)
        let a = Device("A")
        #expect(try a("init", "u1", "--schema", "life-in-uk", "--remote", served.url("u1", user: "u1")).status == 0)
        _ = try a.git("config", "http.proactiveAuth", "basic")
        #expect(try a("put", "users/u1/examAttempts/a1", input: Self.attempt("a1")).status == 0)
        #expect(try a("checkpoint").status == 0)
        let synced = try a("sync", "-q", password: Self.passwords["u1"]!)
        #expect(synced.status == 0, "\(synced.stderr)")
        let requests = server.requests { $0.hasPrefix("200 POST") && $0.contains("git-receive-pack") }
        #expect(!requests.isEmpty && requests.allSatisfy { $0.hasPrefix("200 ") }, "\(requests.joined(separator: "\n"))")
        #expect(try served.main("u1") == a.head())

        // A wrong password sent ahead is refused as one asked for would be: the sync is made
        // again waiting to be asked, and says which credentials to check.
        #expect(try a("put", "users/u1/examAttempts/a2", input: Self.attempt("a2")).status == 0)
        let refused = try a("sync", "-q", password: "not-the-password")
        #expect(refused.status == 1 && refused.stderr.contains("refused the credentials of u1"), "\(refused.stderr)")
        #expect(try served.main("u1") != a.head())
    }

    /// A server that redirects to another (here: another port of 127.0.0.1) never gets the
    /// password ahead of its asking: the password was asked for by the server redirected to,
    /// so the push's first request, to the URL that redirected, goes without it.
    @Test(.runningTime(atMost: .seconds(180))) func aPasswordAskedForAfterARedirectIsNotSentAheadToTheURLThatRedirected() throws {
        let served = try Served()
        defer { served.server.stop() }
        let redirecting = try GitHTTPServer(
            root: served.root, users: Self.passwords,
            redirectingTo: "http://127.0.0.1:\(served.server.port)")
        defer { redirecting.stop() }
        let password = Self.passwords["u1"]!
        let a = Device("A")
        #expect(try a("init", "u1", "--schema", "life-in-uk", "--remote", redirecting.url(for: "u1", user: "u1")).status == 0)
        #expect(try a("put", "users/u1/examAttempts/a1", input: Self.attempt("a1")).status == 0)
        #expect(try a("checkpoint").status == 0)
        let synced = try a("sync", "-q", password: password)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try served.main("u1") == a.head())
        let moved = redirecting.requests { $0.contains("service=git-receive-pack") }
        #expect(moved.contains { $0.hasPrefix("301 ") && $0.contains("service=git-upload-pack") }, "\(moved.joined(separator: "\n"))")
        #expect(
            moved.allSatisfy { $0.hasSuffix(" -") },
            "a request to the URL that redirected carried the password: \(moved.joined(separator: "\n"))")
    }
}
