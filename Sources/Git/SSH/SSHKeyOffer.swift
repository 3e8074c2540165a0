/// A key Cairn offers an SSH server, and who signs with it.
public enum SSHKeyOffer: Sendable, Hashable, CustomStringConvertible {
    /// A key the ssh-agent holds: the agent signs. `identityFile` is the `IdentityFile` it
    /// stands for, if one named it.
    case agent(SSHPublicKey, identityFile: String?)
    /// A key file without passphrase that the agent does not hold: libssh2 reads it and signs.
    case file(String)

    /// The keys to offer, in the order ssh offers them (`pubkey_prepare` in OpenSSH): the
    /// agent's keys in the agent's order — with `identitiesOnly`, only those an identity file
    /// names — then the identity files the agent does not hold. A key file locked by a
    /// passphrase, or of which only the `.pub` is there, is offered only through the agent.
    public static func inOrder(
        identityFiles: [SSHKeyFile], agentKeys: [SSHPublicKey],
        identitiesOnly: Bool
    ) -> [SSHKeyOffer] {
        var files = identityFiles
        var offers: [SSHKeyOffer] = []
        for key in agentKeys {
            if let position = files.firstIndex(where: { $0.publicKey == key }) {
                offers.append(.agent(key, identityFile: files[position].path))
                files.remove(at: position)
            } else if !identitiesOnly {
                offers.append(.agent(key, identityFile: nil))
            }
        }
        for file in files where file.hasPrivateKey && !file.isEncrypted {
            offers.append(.file(file.path))
        }
        return offers
    }

    /// The key file, else the agent key's comment, saying that the agent holds it.
    public var description: String {
        switch self {
        case .agent(let key, let file): "\(file ?? key.description) (in the ssh-agent)"
        case .file(let path): path
        }
    }
}
