import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The tool against a real SSH server on 127.0.0.1 (sshd with its own host and user keys, the
/// user key in an ssh-agent of its own, the repositories made by `cairn server init` with
/// Cairn's hook): devices converge through it, the hook's refusal reaches the device, and an
/// unknown host key or an empty agent stops a clone with one line saying why.
@Suite(.serialized, .historiesVerified) struct SSHSyncTests {

    /// Why the served repositories could not be made.
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    /// Per-user bare repositories made by `cairn server init --schema life-in-uk`, reached
    /// through the SSH server.
    final class Served {
        let folder = TemporaryFolder("cairn-ssh-repos")
        let server: SSHServer
        var root: String { folder.path + "/repos" }
        var url: String { server.url(path: root + "/u1.git") }

        init(agentHoldsKey: Bool = true, strangerKeys: Int = 0) throws {
            let created = try runSSH(CLI.executable, ["server", "init", folder.path + "/repos", "u1", "--schema", "life-in-uk"])
            guard created.status == 0 else {
                throw SetupError(description: "cairn server init failed: \(created.stderr)")
            }
            server = try SSHServer(agentHoldsKey: agentHoldsKey, strangerKeys: strangerKeys)
        }

        /// The server's `main` of u1 resolved with `suffix` ("" when it has none).
        func main(_ suffix: String = "") throws -> String {
            try runSSH("/usr/bin/git", ["--git-dir", root + "/u1.git", "rev-parse", "--verify", "-q", "refs/heads/main" + suffix])
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// One device: a home of its own, the tool run there with the SSH client environment
    /// given (by default the one that knows the host and reaches the agent).
    final class Device {
        let name: String
        let cli = CLI()
        let environment: [String: String]
        var home: String { cli.home }

        init(_ name: String, environment: [String: String]) {
            self.name = name
            self.environment = environment
        }

        @discardableResult
        func callAsFunction(_ arguments: String..., input: String? = nil) throws -> ProcessResult {
            try runSSH(CLI.executable, ["--home", home] + arguments, input: input, environment: environment)
        }

        /// Runs `git -C HOME/u1 ARGS…`.
        @discardableResult
        /// `git -C HOME/u1 ARGS…`. A commit made so breaks a rule on purpose: the audit at the
        /// end of the test leaves its findings out.
        func git(_ arguments: String...) throws -> ProcessResult {
            let result = try runSSH("/usr/bin/git", ["-C", home + "/u1"] + arguments)
            if arguments.contains("commit") {
                HistoriesVerified.exemptHead(
                    of: home + "/u1",
                    because: "a commit plain git makes in these tests breaks a rule on purpose, for the hook or the device to refuse")
            }
            return result
        }

        func revision(_ name: String) throws -> String {
            try git("rev-parse", name).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func attempts() throws -> [String] {
            try self("--user", "u1", "ls", "users/u1/examAttempts").stdout.split(separator: "\n").map(String.init)
        }
    }

    static func attempt(_ id: String, score: Int = 80) -> String {
        #"{"attemptId":"\#(id)","examId":"practice-1","status":"passed","score":\#(score)}"#
    }

    /// Whether `stderr` is exactly one line starting `cairn: `.
    static func isOneLine(_ stderr: String) -> Bool {
        stderr.hasPrefix("cairn: ") && stderr.hasSuffix("\n") && stderr.dropLast().firstIndex(of: "\n") == nil
    }

    /// What is in a home (nothing when it does not exist).
    static func contents(of home: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: home)) ?? []).sorted()
    }

    /// Device A creates u1's store with an ssh:// remote and pushes it with one attempt; A
    /// device B restores it with `cairn clone`; both add an attempt offline; A, B, A sync. Both
    /// then hold the server's tree with every attempt, and their remote is still the ssh:// URL.
    @Test(.runningTime(atMost: .seconds(180))) func twoDevicesConvergeOverSSH() throws {
        let served = try Served()
        defer { served.server.stop() }
        let a = Device("A", environment: served.server.environment)
        let b = Device("B", environment: served.server.environment)

        let created = try a("init", "u1", "--schema", "life-in-uk", "--remote", served.url)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try a("put", "users/u1/examAttempts/a1", input: Self.attempt("a1")).status == 0)
        let first = try a("sync")
        #expect(first.status == 0, "\(first.stderr)\n\(served.server.log)")
        #expect(try served.main() == a.revision("HEAD"))

        let cloned = try b("clone", served.url)
        #expect(cloned.status == 0, "\(cloned.stderr)\n\(served.server.log)")
        #expect(cloned.stdout.hasPrefix("Restored the store of user u1 from "), "\(cloned.stdout)")
        #expect(try b.revision("HEAD") == a.revision("HEAD"))

        // Offline on both: a new attempt each.
        #expect(try a("put", "users/u1/examAttempts/a2", input: Self.attempt("a2", score: 90)).status == 0)
        #expect(try b("put", "users/u1/examAttempts/a3", input: Self.attempt("a3", score: 70)).status == 0)
        for (device, step) in [(a, "A pushes first"), (b, "B merges A's work and pushes"), (a, "A fast-forwards")] {
            let synced = try device("sync", "-q")
            #expect(synced.status == 0, "\(step): \(synced.stderr)")
        }

        let tree = try served.main("^{tree}")
        #expect(!tree.isEmpty)
        #expect(try a.revision("HEAD^{tree}") == tree)
        #expect(try b.revision("HEAD^{tree}") == tree)
        #expect(try a.revision("HEAD") == b.revision("HEAD"))
        for device in [a, b] {
            #expect(try device.attempts() == ["a1", "a2", "a3"], "attempts on \(device.name)")
            #expect(try device.git("status", "--porcelain").stdout == "", "clean working tree on \(device.name)")
            #expect(try device.git("config", "remote.origin.url").stdout == served.url + "\n", "remote on \(device.name)")
            #expect(try device("--user", "u1", "status").stdout.contains("every checkpoint pushed"), "status on \(device.name)")
        }
    }

    /// The server's hook runs over SSH too: an attempt changed with plain git is refused as
    /// append-only, the hook's reason reaches the device as one line, the device keeps its
    /// commit and the server's main does not move.
    @Test(.runningTime(atMost: .seconds(180))) func theHookRefusalReachesTheDeviceOverSSH() throws {
        let served = try Served()
        defer { served.server.stop() }
        let (a, published) = try Self.publishedStore(served)
        #expect(published == (try a.revision("HEAD")))

        let file = a.home + "/u1/users/u1/examAttempts/a1.json"
        let original = try String(contentsOfFile: file, encoding: .utf8)
        #expect(original.contains("\"score\": 80"), "\(original)")
        try original.replacingOccurrences(of: "\"score\": 80", with: "\"score\": 95").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try a.git("-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qam", "x").status == 0)
        let edited = try a.revision("HEAD")

        let refused = try a("sync", "-q")
        #expect(refused.status == 1, "\(refused.status) \(refused.stderr)")
        #expect(Self.isOneLine(refused.stderr), "\(refused.stderr)")
        #expect(refused.stderr.contains("append-only"), "\(refused.stderr)")
        #expect(refused.stderr.contains("users/u1/examAttempts/a1"), "\(refused.stderr)")
        #expect(try a.revision("HEAD") == edited, "the refused commit stays on the device")
        #expect(try served.main() == published)
    }

    /// Device A's store of u1 with one attempt, pushed over SSH; and the server's commit.
    static func publishedStore(_ served: Served) throws -> (Device, String) {
        let a = Device("A", environment: served.server.environment)
        #expect(try a("init", "u1", "--schema", "life-in-uk", "--remote", served.url).status == 0)
        #expect(try a("put", "users/u1/examAttempts/a1", input: Self.attempt("a1")).status == 0)
        let first = try a("sync", "-q")
        #expect(first.status == 0, "\(first.stderr)\n\(served.server.log)")
        return (a, try served.main())
    }

    /// A host whose key is not in `~/.ssh/known_hosts` is not talked to: a clone fails with
    /// status 1 (an authentication error, not a network one to retry) and one line naming
    /// known_hosts, leaving nothing in the home; a sync to it fails the same way.
    @Test(.runningTime(atMost: .seconds(180))) func anUnknownHostKeyIsRefused() throws {
        let served = try Served()
        defer { served.server.stop() }
        let (a, published) = try Self.publishedStore(served)

        let stranger = Device("stranger", environment: served.server.environment(knownHosts: false))
        let cloned = try stranger("clone", served.url)
        #expect(cloned.status == 1, "\(cloned.status) \(cloned.stderr)")
        #expect(Self.isOneLine(cloned.stderr), "\(cloned.stderr)")
        #expect(cloned.stderr.contains("known_hosts"), "\(cloned.stderr)")
        #expect(Self.contents(of: stranger.home) == [], "a refused clone leaves nothing in the home")

        // The same store, now synced from a shell that does not know the host.
        #expect(try a("put", "users/u1/examAttempts/a2", input: Self.attempt("a2")).status == 0)
        let unknown = try runSSH(
            CLI.executable, ["--home", a.home, "sync", "-q"],
            environment: served.server.environment(knownHosts: false))
        #expect(unknown.status == 1, "\(unknown.status) \(unknown.stderr)")
        #expect(Self.isOneLine(unknown.stderr), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("known_hosts"), "\(unknown.stderr)")
        #expect(try served.main() == published)
    }

    /// With no key in the agent, the client has nothing the server accepts: a clone fails with
    /// one line saying there is no key to offer and how to give one, and leaves nothing in the home.
    @Test(.runningTime(atMost: .seconds(180))) func anEmptyAgentIsRefused() throws {
        let served = try Served(agentHoldsKey: false)
        defer { served.server.stop() }
        let device = Device("empty agent", environment: served.server.environment)
        let cloned = try device("clone", served.url)
        #expect(cloned.status == 1, "\(cloned.status) \(cloned.stderr)")
        #expect(Self.isOneLine(cloned.stderr), "\(cloned.stderr)")
        #expect(cloned.stderr.contains("no SSH key to offer to root@127.0.0.1 (the ssh-agent holds no key)"), "\(cloned.stderr)")
        #expect(cloned.stderr.contains("ssh-add") && cloned.stderr.contains("IdentityFile"), "\(cloned.stderr)")
        #expect(!cloned.stderr.contains("known_hosts"), "\(cloned.stderr)")
        #expect(Self.contents(of: device.home) == [], "a refused clone leaves nothing in the home")
    }
}

/// `runBounded` without the test runner's own ssh-agent, so only the test server's agent counts.
func runSSH(
    _ executable: String, _ arguments: [String], input: String? = nil,
    environment: [String: String] = [:]
) throws -> ProcessResult {
    try runBounded(executable, arguments, input: input, environment: environment, removing: ["SSH_AUTH_SOCK", "SSH_AGENT_PID"])
}
