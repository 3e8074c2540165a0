import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The tool against gitolite3 over SSH on 127.0.0.1, a server that tells users apart by the
/// key they offer, with Cairn's hook installed as a gitolite repository hook: each user (u1,
/// u2) owns a repository, and a coach may read u1's. Every device's agent holds several keys,
/// another user's first, and its `~/.ssh/config` names its own (`IdentityFile`,
/// `IdentitiesOnly yes`). Devices converge, the hook's refusals and gitolite's own reach the
/// device in one line with status 1 and no retry, and each user reaches only what gitolite
/// grants.
@Suite(.serialized, .historiesVerified) struct GitoliteSyncTests {
    /// One device of a user: a home of its own whose `~/.ssh/config` names the server
    /// `progress` and the user's key, and an agent holding `agentKeys` in order.
    final class Device {
        let name: String
        let cli = CLI()
        let agent: SSHAgentProcess
        let environment: [String: String]
        var home: String { cli.home }

        init(_ name: String, of user: String, on server: GitoliteServer, agentKeys: [String], chooses: Bool = true) throws {
            self.name = name
            let config = chooses ? GitoliteSyncTests.config(server, key: "~/.ssh/id_progress") : nil
            let sshHome = try server.makeHome(name, config: config, keys: [user: "id_progress"])
            agent = try SSHAgentProcess(keys: agentKeys.map(server.key))
            environment = ["HOME": sshHome, "SSH_AUTH_SOCK": agent.socket, "CAIRN_SYNC_RETRY": "1"]
        }

        @discardableResult
        func callAsFunction(_ arguments: String..., input: String? = nil) throws -> ProcessResult {
            try runSSH(CLI.executable, ["--home", home] + arguments, input: input, environment: environment)
        }

        /// `git -C HOME/UID ARGS…`. A commit made so breaks a rule on purpose: the audit at the
        /// end of the test leaves its findings out.
        @discardableResult
        func git(_ uid: String, _ arguments: String...) throws -> ProcessResult {
            let result = try runSSH("/usr/bin/git", ["-C", home + "/" + uid] + arguments)
            if arguments.contains("commit") {
                HistoriesVerified.exemptHead(
                    of: home + "/" + uid,
                    because: "a commit plain git makes in these tests breaks a rule on purpose, for the hook or the device to refuse")
            }
            return result
        }

        func revision(_ uid: String, _ name: String) throws -> String {
            try git(uid, "rev-parse", name).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        func attempts(_ uid: String) throws -> [String] {
            try self("--user", uid, "ls", "users/\(uid)/examAttempts").stdout.split(separator: "\n").map(String.init)
        }
    }

    /// `~/.ssh/config` naming the server `progress`, offering `key` alone.
    static func config(_ server: GitoliteServer, key: String) -> String {
        """
        Host progress
            HostName 127.0.0.1
            Port \(server.port)
            User root
            IdentityFile \(key)
            IdentitiesOnly yes

        """
    }

    static func attempt(_ id: String, score: Int = 80) -> String { SSHSyncTests.attempt(id, score: score) }

    /// A gitolite server with repositories u1 and u2, and a coach who may read u1's.
    static func server() throws -> GitoliteServer {
        try GitoliteServer(cairn: CLI.executable, owners: ["u1", "u2"], readers: ["coach": ["u1"]])
    }

    /// Device A of u1 creates the store with remote `progress:u1` and pushes an attempt.
    static func published(_ server: GitoliteServer) throws -> Device {
        let a = try Device("A", of: "u1", on: server, agentKeys: ["u2", "u1"])
        let created = try a("init", "u1", "--schema", "life-in-uk", "--remote", "progress:u1")
        #expect(created.status == 0, "\(created.stderr)")
        #expect(try a("put", "users/u1/examAttempts/a1", input: attempt("a1")).status == 0)
        let pushed = try a("sync", "-q")
        #expect(pushed.status == 0, "\(pushed.stderr)\n\(server.log)")
        #expect(try server.main(of: "u1") == a.revision("u1", "HEAD"))
        return a
    }

    /// A and B of u1 — B's agent holds u2's key only, so its own is offered from the file —
    /// work offline and sync A, B, A: both end on the server's tree with every attempt.
    @Test(.runningTime(atMost: .seconds(180))) func twoDevicesOfOneUserMergeThroughGitolite() throws {
        let server = try Self.server()
        defer { server.stop() }
        let a = try Self.published(server)
        let b = try Device("B", of: "u1", on: server, agentKeys: ["u2"])
        let cloned = try b("clone", "progress:u1")
        #expect(cloned.status == 0, "\(cloned.stderr)\n\(server.log)")
        #expect(try b.revision("u1", "HEAD") == a.revision("u1", "HEAD"))

        #expect(try a("put", "users/u1/examAttempts/a2", input: Self.attempt("a2", score: 90)).status == 0)
        #expect(try b("put", "users/u1/examAttempts/a3", input: Self.attempt("a3", score: 70)).status == 0)
        for (device, step) in [(a, "A pushes first"), (b, "B merges A's work and pushes"), (a, "A fast-forwards")] {
            let synced = try device("sync", "-q")
            #expect(synced.status == 0, "\(step): \(synced.stderr)")
        }
        let tree = try server.main(of: "u1", "^{tree}")
        #expect(!tree.isEmpty)
        for device in [a, b] {
            #expect(try device.revision("u1", "HEAD^{tree}") == tree, "tree on \(device.name)")
            #expect(try device.attempts("u1") == ["a1", "a2", "a3"], "attempts on \(device.name)")
            #expect(try device("--user", "u1", "status").stdout.contains("every checkpoint pushed"), "status on \(device.name)")
        }
        #expect(try runProcess("/usr/bin/git", ["--git-dir", server.repository("u1"), "fsck", "--strict"]).status == 0)
    }

    /// Without `IdentitiesOnly` the agent offers u2's key first; gitolite takes it, so the
    /// device is u2 there, and u2 may not read u1's repository. The clone and the sync each say
    /// so in one line naming the key and gitolite's words, at once.
    @Test(.runningTime(atMost: .seconds(180))) func anotherUsersKeyFirstInTheAgentIsDeniedInOneLine() throws {
        let server = try Self.server()
        defer { server.stop() }
        let a = try Self.published(server)
        let published = try server.main(of: "u1")
        let url = "ssh://root@127.0.0.1:\(server.port)/u1"
        let mixed = try Device("mixed", of: "u1", on: server, agentKeys: ["u2", "u1"], chooses: false)
        let cloned = try mixed("clone", url)
        SSHRefusalTests.expectRefusal(
            cloned, "cannot fetch from \(url): the server denied root@127.0.0.1 with key u2 (in the ssh-agent)",
            "FATAL: R any u1 u2 DENIED", "IdentitiesOnly yes")
        #expect(SSHSyncTests.contents(of: mixed.home) == [])

        #expect(try a("put", "users/u1/examAttempts/a2", input: Self.attempt("a2")).status == 0)
        #expect(try runSSH(CLI.executable, ["--home", a.home, "remote", "set", url], environment: a.environment).status == 0)
        let denied = try runSSH(CLI.executable, ["--home", a.home, "sync"], environment: mixed.environment)
        SSHRefusalTests.expectRefusal(denied, "DENIED")
        #expect(try server.main(of: "u1") == published)
    }

    /// The hook runs as gitolite's repository hook: an attempt changed with plain git and
    /// pushed with `git push` is refused as append-only by the server; `cairn sync` refuses the
    /// same commit before sending it, with the same reason in one line; the server does not
    /// move. An attempt added the ordinary way then goes through.
    @Test(.runningTime(atMost: .seconds(180))) func theHookRefusalReachesTheDeviceThroughGitolite() throws {
        let server = try Self.server()
        defer { server.stop() }
        let a = try Self.published(server)
        let published = try server.main(of: "u1")
        let file = a.home + "/u1/users/u1/examAttempts/a1.json"
        let original = try String(contentsOfFile: file, encoding: .utf8)
        try original.replacingOccurrences(of: "\"score\": 80", with: "\"score\": 95").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try a.git("u1", "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-qam", "x").status == 0)
        let url = try a("remote").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        // OpenSSH reads the passwd entry's home, not HOME: the device's files are named.
        let sshHome = a.environment["HOME"] ?? ""
        let ssh = "ssh -F \(sshHome)/.ssh/config -i \(sshHome)/.ssh/id_progress -o UserKnownHostsFile=\(sshHome)/.ssh/known_hosts"
        let pushed = try runSSH(
            "/usr/bin/git", ["-C", a.home + "/u1", "push", url, "main"],
            environment: a.environment.merging(["GIT_SSH_COMMAND": ssh]) { $1 })
        #expect(pushed.status != 0 && pushed.stderr.contains("users/u1/examAttempts/a1 is append-only"), "\(pushed.stderr)")
        #expect(try server.main(of: "u1") == published)
        let refused = try a("sync", "-q")
        SSHRefusalTests.expectRefusal(refused, "breaks the server's rules, and was not sent: users/u1/examAttempts/a1 is append-only")
        #expect(try server.main(of: "u1") == published)

        #expect(try a.git("u1", "reset", "-q", "--hard", "HEAD~1").status == 0)
        #expect(try a("put", "users/u1/examAttempts/a2", input: Self.attempt("a2")).status == 0)
        let synced = try a("sync", "-q")
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try server.main(of: "u1") == a.revision("u1", "HEAD"))
    }

    /// Who reaches what: u1 and u2 each read and write their own repository only; the coach
    /// reads u1's and may not write it. Each refusal is gitolite's `DENIED`, in one line,
    /// status 1, nothing left behind and nothing moved on the server.
    @Test(.runningTime(atMost: .seconds(180))) func theAccessMatrixHolds() throws {
        let server = try Self.server()
        defer { server.stop() }
        let u1 = try Self.published(server)
        let u1Main = try server.main(of: "u1")

        let u2 = try Device("u2", of: "u2", on: server, agentKeys: ["u1", "u2"])
        #expect(try u2("init", "u2", "--schema", "life-in-uk", "--remote", "progress:u2").status == 0)
        #expect(try u2("put", "users/u2/examAttempts/b1", input: Self.attempt("b1")).status == 0)
        let u2Synced = try u2("sync", "-q")
        #expect(u2Synced.status == 0, "\(u2Synced.stderr)")
        let u2Main = try server.main(of: "u2")
        #expect(u2Main == (try u2.revision("u2", "HEAD")))

        let u1ReadsU2 = try Device("u1 elsewhere", of: "u1", on: server, agentKeys: ["u1"])
        SSHRefusalTests.expectRefusal(try u1ReadsU2("clone", "progress:u2"), "FATAL: R any u2 u1 DENIED")
        #expect(SSHSyncTests.contents(of: u1ReadsU2.home) == [])
        let u2ReadsU1 = try Device("u2 elsewhere", of: "u2", on: server, agentKeys: ["u2"])
        SSHRefusalTests.expectRefusal(try u2ReadsU1("clone", "progress:u1"), "FATAL: R any u1 u2 DENIED")

        let coach = try Device("coach", of: "coach", on: server, agentKeys: ["u1", "coach"])
        let read = try coach("clone", "progress:u1")
        #expect(read.status == 0, "\(read.stderr)")
        #expect(try coach.attempts("u1") == ["a1"])
        #expect(try coach("put", "users/u1/examAttempts/c1", input: Self.attempt("c1")).status == 0)
        SSHRefusalTests.expectRefusal(
            try coach("sync"), "cannot push to progress:u1: the server denied root@127.0.0.1",
            "FATAL: W any u1 coach DENIED")

        #expect(try server.main(of: "u1") == u1Main)
        #expect(try server.main(of: "u2") == u2Main)
        // The owner still reads and writes its own.
        #expect(try u1("put", "users/u1/examAttempts/a2", input: Self.attempt("a2")).status == 0)
        let owner = try u1("sync", "-q")
        #expect(owner.status == 0, "\(owner.stderr)")
        #expect(try server.main(of: "u1") == u1.revision("u1", "HEAD"))
        #expect(try server.main(of: "u1") != u1Main)
    }
}
