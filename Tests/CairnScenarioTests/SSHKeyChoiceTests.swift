import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The key is chosen as OpenSSH chooses it, against a real sshd whose agent holds seven keys it
/// refuses before the one it accepts (more than sshd's six tries): `IdentityFile` and
/// `IdentitiesOnly` in `~/.ssh/config` for a host alias (with its `HostName`, `Port` and
/// `User`), the key file itself when the agent lacks it, ssh's default key file, and the ssh
/// command git would run (`GIT_SSH_COMMAND`, `core.sshCommand`).
@Suite(.serialized, .historiesVerified) struct SSHKeyChoiceTests {
    typealias Served = SSHSyncTests.Served
    typealias Device = SSHSyncTests.Device

    /// `~/.ssh/config` naming the test server `progress`, with `identity` lines after it.
    static func config(_ served: Served, _ identity: String) -> String {
        """
        # Cairn's test server
        Host progress
            HostName 127.0.0.1
            Port \(served.server.port)
            User root
        \(identity)

        Host *
            IdentitiesOnly no

        """
    }

    /// u1's remote through the alias: scp's form, the path absolute.
    static func aliasURL(_ served: Served) -> String { "progress:" + served.root + "/u1.git" }

    /// The agent lists seven strangers before the user key. Offered in the agent's order, they
    /// use up the server's tries; with `IdentityFile` naming the user key's `.pub` (the private
    /// key is only in the agent) and `IdentitiesOnly yes`, the agent's matching key alone is
    /// offered and the clone and syncs go through the alias.
    @Test(.runningTime(atMost: .seconds(180))) func identitiesOnlyOffersTheAgentKeyOfTheIdentityFile() throws {
        let served = try Served(strangerKeys: 7)
        defer { served.server.stop() }
        let (_, published) = try SSHRefusalTests.publishedWithTheKeyAlone(served)

        // Without a choice, every key of the agent in turn: refused.
        let device = Device("B", environment: served.server.environment)
        let refused = try device("clone", served.url)
        SSHRefusalTests.expectRefusal(refused, "closed the connection")

        let ssh = served.server.home + "/.ssh"
        try FileManager.default.copyItem(atPath: served.server.userKey + ".pub", toPath: ssh + "/id_progress.pub")
        try Self.config(served, "    IdentityFile ~/.ssh/id_progress\n    IdentitiesOnly yes")
            .write(toFile: ssh + "/config", atomically: false, encoding: .utf8)
        let cloned = try device("clone", Self.aliasURL(served))
        #expect(cloned.status == 0, "\(cloned.stderr)\n\(served.server.log)")
        #expect(try device.revision("HEAD") == published)
        #expect(try device.git("config", "remote.origin.url").stdout == Self.aliasURL(served) + "\n")
        #expect(try device("put", "users/u1/examAttempts/b1", input: SSHSyncTests.attempt("b1")).status == 0)
        let synced = try device("sync", "-q")
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try served.main() == device.revision("HEAD"))
        #expect(served.server.log.contains("Accepted publickey for root"), "\(served.server.log)")
    }

    /// `IdentityFile` without `IdentitiesOnly` still lets the agent's keys go first, as ssh
    /// does: refused. A key file the agent does not hold is offered from the file.
    @Test(.runningTime(atMost: .seconds(180))) func aKeyFileTheAgentLacksIsOfferedFromTheFile() throws {
        let served = try Served(agentHoldsKey: false, strangerKeys: 7)
        defer { served.server.stop() }
        let ssh = served.server.home + "/.ssh"
        try Self.config(served, "    IdentityFile \(served.server.userKey)")
            .write(toFile: ssh + "/config", atomically: false, encoding: .utf8)
        let device = Device("A", environment: served.server.environment)
        #expect(try device("init", "u1", "--schema", "life-in-uk", "--remote", Self.aliasURL(served)).status == 0)
        #expect(try device("put", "users/u1/examAttempts/a1", input: SSHSyncTests.attempt("a1")).status == 0)
        SSHRefusalTests.expectRefusal(try device("sync"), "closed the connection")

        try Self.config(served, "    IdentityFile \(served.server.userKey)\n    IdentitiesOnly yes")
            .write(toFile: ssh + "/config", atomically: false, encoding: .utf8)
        let synced = try device("sync", "-q")
        #expect(synced.status == 0, "\(synced.stderr)\n\(served.server.log)")
        #expect(try served.main() == device.revision("HEAD"))
    }

    /// With no agent and no configuration, ssh's default key file (`~/.ssh/id_ed25519`) is
    /// offered.
    @Test(.runningTime(atMost: .seconds(180))) func theDefaultKeyFileIsOffered() throws {
        let served = try Served(agentHoldsKey: false)
        defer { served.server.stop() }
        try FileManager.default.copyItem(atPath: served.server.userKey, toPath: served.server.home + "/.ssh/id_ed25519")
        let device = Device("A", environment: ["HOME": served.server.home])
        #expect(try device("init", "u1", "--schema", "life-in-uk", "--remote", served.url).status == 0)
        #expect(try device("put", "users/u1/examAttempts/a1", input: SSHSyncTests.attempt("a1")).status == 0)
        let synced = try device("sync", "-q")
        #expect(synced.status == 0, "\(synced.stderr)\n\(served.server.log)")
        #expect(try served.main() == device.revision("HEAD"))
    }

    /// The ssh command git would run chooses the key too: `GIT_SSH_COMMAND` for a clone, then
    /// `core.sshCommand` in the store's configuration for its syncs; without it the agent's
    /// strangers use up the tries again. A command Cairn cannot follow is refused in one line.
    @Test(.runningTime(atMost: .seconds(180))) func theSSHCommandOfGitChoosesTheKey() throws {
        let served = try Served(strangerKeys: 7)
        defer { served.server.stop() }
        let (_, published) = try SSHRefusalTests.publishedWithTheKeyAlone(served)
        #expect(!published.isEmpty)
        let command = "ssh -i \(served.server.userKey) -o IdentitiesOnly=yes"
        let b = Device("B", environment: served.server.environment)
        let cloned = try runSSH(
            CLI.executable, ["--home", b.home, "clone", served.url],
            environment: served.server.environment.merging(["GIT_SSH_COMMAND": command]) { $1 })
        #expect(cloned.status == 0, "\(cloned.stderr)")

        #expect(try b("put", "users/u1/examAttempts/b1", input: SSHSyncTests.attempt("b1")).status == 0)
        SSHRefusalTests.expectRefusal(try b("sync"), "closed the connection")
        #expect(try b.git("config", "core.sshCommand", command).status == 0)
        let synced = try b("sync", "-q")
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try served.main() == b.revision("HEAD"))

        #expect(try b.git("config", "core.sshCommand", "ssh -J jump.example.com").status == 0)
        SSHRefusalTests.expectRefusal(try b("sync"), "core.sshCommand: ssh's -J is not something Cairn does")
    }

    /// A `~/.ssh/config` ssh would refuse is refused, naming the file and the line.
    @Test(.runningTime(atMost: .seconds(180))) func aBrokenSSHConfigurationIsNamed() throws {
        let served = try Served()
        defer { served.server.stop() }
        try "Host progress\n    Port ssh\n".write(toFile: served.server.home + "/.ssh/config", atomically: false, encoding: .utf8)
        let device = Device("A", environment: served.server.environment)
        SSHRefusalTests.expectRefusal(
            try device("clone", "progress:/srv/u1.git"),
            "cannot reach progress:/srv/u1.git: \(served.server.home)/.ssh/config line 2: Port \"ssh\" is not a port number")
        #expect(SSHSyncTests.contents(of: device.home) == [])
    }
}
