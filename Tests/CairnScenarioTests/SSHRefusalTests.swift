import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Over SSH, a refusal is final and said in one line — no agent, an agent whose every key the
/// server refuses (fewer keys than the server allows tries, and more), a repository that is
/// not there — and exits 1 at once: the retry schedule, set to 1 s, is never used, where a
/// network failure would be tried again and end with 75.
@Suite(.serialized, .historiesVerified) struct SSHRefusalTests {
    typealias Served = SSHSyncTests.Served

    /// A retry schedule that a retried failure would show (a second line, exit 75).
    static let retryOnce = ["CAIRN_SYNC_RETRY": "1"]

    /// Expects `result` to be a refusal: status 1, one line holding each of `phrases`, and no
    /// retry.
    static func expectRefusal(_ result: ProcessResult, _ phrases: String..., sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 1, "\(result.status) \(result.stderr)", sourceLocation: sourceLocation)
        #expect(SSHSyncTests.isOneLine(result.stderr), "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stderr.contains("trying again"), "\(result.stderr)", sourceLocation: sourceLocation)
        for phrase in phrases {
            #expect(result.stderr.contains(phrase), "\(phrase): \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    /// Without an agent (SSH_AUTH_SOCK unset) and without a key file, a sync and a clone have
    /// nothing to offer: they say so and how to give a key; the server does not move and the
    /// clone leaves nothing behind.
    @Test(.runningTime(atMost: .seconds(180))) func withoutAnAgentNothingIsOffered() throws {
        let served = try Served()
        defer { served.server.stop() }
        let (a, published) = try SSHSyncTests.publishedStore(served)
        #expect(try a("put", "users/u1/examAttempts/a2", input: SSHSyncTests.attempt("a2")).status == 0)
        let noAgent = Self.retryOnce.merging(["HOME": served.server.home]) { $1 }

        let synced = try runSSH(CLI.executable, ["--home", a.home, "sync"], environment: noAgent)
        Self.expectRefusal(
            synced, "cannot push to \(served.url): no SSH key to offer to root@127.0.0.1",
            "SSH_AUTH_SOCK is not set", "ssh-add", "IdentityFile")
        #expect(try served.main() == published)

        let stranger = SSHSyncTests.Device("no agent", environment: noAgent)
        Self.expectRefusal(try stranger("clone", served.url), "no SSH key to offer")
        #expect(SSHSyncTests.contents(of: stranger.home) == [])
    }

    /// An agent holding two keys the server does not accept: each is offered, one at a time,
    /// and the refusal names both.
    @Test(.runningTime(atMost: .seconds(180))) func everyKeyRefusedIsNamed() throws {
        let served = try Served(agentHoldsKey: false, strangerKeys: 2)
        defer { served.server.stop() }
        let device = SSHSyncTests.Device("strangers", environment: served.server.environment.merging(Self.retryOnce) { $1 })
        Self.expectRefusal(
            try device("clone", served.url),
            "root@127.0.0.1 refused every key offered (stranger1 (in the ssh-agent), stranger2 (in the ssh-agent))",
            "IdentityFile")
        #expect(SSHSyncTests.contents(of: device.home) == [])
        #expect(served.server.log.contains("Failed publickey"), "\(served.server.log)")
    }

    /// An agent holding more keys than the server allows tries (sshd's MaxAuthTries, 6): the
    /// server closes the connection in the middle of authentication, which is a refusal too,
    /// not a network failure.
    @Test(.runningTime(atMost: .seconds(180))) func tooManyKeysRefusedIsARefusal() throws {
        let served = try Served(strangerKeys: 7)
        defer { served.server.stop() }
        let (a, published) = try Self.publishedWithTheKeyAlone(served)
        #expect(try a("put", "users/u1/examAttempts/a2", input: SSHSyncTests.attempt("a2")).status == 0)
        let synced = try runSSH(
            CLI.executable, ["--home", a.home, "sync"],
            environment: served.server.environment.merging(Self.retryOnce) { $1 })
        Self.expectRefusal(
            synced, "root@127.0.0.1 refused the keys offered (stranger1 (in the ssh-agent),",
            "closed the connection", "IdentitiesOnly yes")
        #expect(try served.main() == published)
    }

    /// A path the server has no repository at: one line saying so, at once.
    @Test(.runningTime(atMost: .seconds(180))) func aMissingRepositoryIsNotRetried() throws {
        let served = try Served()
        defer { served.server.stop() }
        let device = SSHSyncTests.Device("lost", environment: served.server.environment.merging(Self.retryOnce) { $1 })
        Self.expectRefusal(
            try device("clone", served.server.url(path: served.root + "/nobody.git")),
            "there is no repository there", "does not appear to be a git repository")
        #expect(SSHSyncTests.contents(of: device.home) == [])
    }

    /// Device A's store of u1 with one attempt, pushed over SSH with only the user key offered
    /// (the device runs with `GIT_SSH_COMMAND`: the agent also holds strangers); and the
    /// server's commit.
    static func publishedWithTheKeyAlone(_ served: Served) throws -> (SSHSyncTests.Device, String) {
        let command = ["GIT_SSH_COMMAND": "ssh -i \(served.server.userKey) -o IdentitiesOnly=yes"]
        let a = SSHSyncTests.Device("A", environment: served.server.environment.merging(command) { $1 })
        #expect(try a("init", "u1", "--schema", "life-in-uk", "--remote", served.url).status == 0)
        #expect(try a("put", "users/u1/examAttempts/a1", input: SSHSyncTests.attempt("a1")).status == 0)
        let first = try a("sync", "-q")
        #expect(first.status == 0, "\(first.stderr)\n\(served.server.log)")
        return (a, try served.main())
    }
}
