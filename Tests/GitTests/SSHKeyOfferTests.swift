import CairnTestSupport
import Foundation
import Git
import Testing

/// The keys offered, in ssh's order: the agent's first, in its order — with `IdentitiesOnly`,
/// only those an identity file names — then identity files the agent lacks, never one locked
/// by a passphrase or of which only the `.pub` is there. Against a real ssh-agent and real key
/// files made by ssh-keygen.
@Suite struct SSHKeyOfferTests {
    let folder = TemporaryFolder("cairn-ssh-keys")

    func key(_ name: String, passphrase: String = "") throws -> String {
        let path = folder.path + "/" + name
        let made = try runProcess("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", passphrase, "-C", name, "-f", path])
        #expect(made.status == 0, "\(made.stderr)")
        return path
    }

    func publicKey(_ path: String) throws -> SSHPublicKey {
        try #require(SSHPublicKey(line: String(contentsOfFile: path + ".pub", encoding: .utf8)))
    }

    @Test func offersFollowSSHsOrder() throws {
        let (a, b, c, d) = try (key("a"), key("b"), key("c"), key("d"))
        let agent = try [a, b, c].map(publicKey)
        let files = try [c, d, a].map { try #require(SSHKeyFile.read($0)) }
        let all = SSHKeyOffer.inOrder(identityFiles: files, agentKeys: agent, identitiesOnly: false)
        #expect(
            all == [
                .agent(agent[0], identityFile: a), .agent(agent[1], identityFile: nil),
                .agent(agent[2], identityFile: c), .file(d),
            ])
        let only = SSHKeyOffer.inOrder(identityFiles: files, agentKeys: agent, identitiesOnly: true)
        #expect(only == [.agent(agent[0], identityFile: a), .agent(agent[2], identityFile: c), .file(d)])
        #expect(only.map(\.description) == ["\(a) (in the ssh-agent)", "\(c) (in the ssh-agent)", d])
        #expect(SSHKeyOffer.inOrder(identityFiles: [], agentKeys: agent, identitiesOnly: true) == [])
    }

    /// A key file is known by its `.pub`, else by its private file (OpenSSH's format holds the
    /// public key in clear, even when a passphrase locks the rest).
    @Test func keyFilesShowTheirPublicKeyAndWhetherTheyAreLocked() throws {
        let plain = try key("plain")
        let locked = try key("locked", passphrase: "secret phrase")
        let expected = try [plain, locked].map(publicKey)
        try FileManager.default.removeItem(atPath: plain + ".pub")
        try FileManager.default.removeItem(atPath: locked + ".pub")
        let plainFile = try #require(SSHKeyFile.read(plain))
        #expect(plainFile.publicKey == expected[0] && plainFile.hasPrivateKey && !plainFile.isEncrypted)
        let lockedFile = try #require(SSHKeyFile.read(locked))
        #expect(lockedFile.publicKey == expected[1] && lockedFile.hasPrivateKey && lockedFile.isEncrypted)
        #expect(SSHKeyFile.read(folder.path + "/absent") == nil)

        // Only the .pub: offered only through an agent that holds it.
        let onlyPublic = try key("public")
        try FileManager.default.removeItem(atPath: onlyPublic)
        let publicFile = try #require(SSHKeyFile.read(onlyPublic))
        let onlyPublicKey = try publicKey(onlyPublic)
        #expect(!publicFile.hasPrivateKey && publicFile.publicKey == onlyPublicKey)
        #expect(SSHKeyOffer.inOrder(identityFiles: [lockedFile, publicFile], agentKeys: [], identitiesOnly: false) == [])
        #expect(
            SSHKeyOffer.inOrder(identityFiles: [lockedFile, publicFile], agentKeys: [expected[1]], identitiesOnly: true)
                == [.agent(expected[1], identityFile: locked)])
    }

    /// The agent client lists a real agent's keys in its order with their comments, signs with
    /// one of them (an ed25519 signature is 64 bytes), and says so when asked to sign with a
    /// key it does not hold or when there is no agent.
    @Test func theAgentListsItsKeysAndSigns() throws {
        let (first, second) = try (key("first"), key("second"))
        let process = try SSHAgentProcess(keys: [second, first])
        defer { process.stop() }
        let agent = SSHAgent(socket: process.socket)
        let keys = try agent.keys()
        let expected = try [second, first].map(publicKey)
        #expect(keys == expected)
        #expect(keys.map(\.comment) == ["second", "first"])
        #expect(keys.allSatisfy { $0.type == "ssh-ed25519" })
        let signature = try agent.sign(Array("data to sign".utf8), with: keys[0])
        #expect(signature.count == 64)
        #expect(try agent.sign(Array("data to sign".utf8), with: keys[0]) == signature, "ed25519 signs deterministically")
        #expect(try agent.sign(Array("other data".utf8), with: keys[0]) != signature)
        let stranger = try publicKey(try key("stranger"))
        #expect(throws: SSHAgentError("the ssh-agent at \(process.socket) refused to sign with stranger (does it still hold the key?)")) {
            try agent.sign([1, 2, 3], with: stranger)
        }
        #expect(throws: SSHAgentError.self) { try SSHAgent(socket: folder.path + "/no-agent.sock").keys() }
    }
}
