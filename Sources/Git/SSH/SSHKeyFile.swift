/// A key file an `IdentityFile` names, as ssh reads it before offering it: its public key
/// (from `FILE.pub`, else from the private key file, whose OpenSSH format holds it in
/// clear), whether the private key is there, and whether a passphrase locks it.
public struct SSHKeyFile: Sendable, Hashable {
    /// The private key's path, as named (expanded).
    public let path: String
    /// The public key, when `FILE.pub` or the private key file shows it.
    public let publicKey: SSHPublicKey?
    /// Whether the private key file exists.
    public let hasPrivateKey: Bool
    /// Whether the private key needs a passphrase (Cairn asks for none: such a key is used
    /// only through an agent that holds it).
    public let isEncrypted: Bool

    public init(path: String, publicKey: SSHPublicKey?, hasPrivateKey: Bool, isEncrypted: Bool) {
        self.path = path
        self.publicKey = publicKey
        self.hasPrivateKey = hasPrivateKey
        self.isEncrypted = isEncrypted
    }

    /// The key file at `path`; nil when neither it nor `path.pub` exists (ssh passes over
    /// such a file without a word).
    public static func read(_ path: String) -> SSHKeyFile? {
        let privateText = SSHFiles.text(path)
        let publicText = SSHFiles.text(path + ".pub")
        guard privateText != nil || publicText != nil else { return nil }
        let format = privateText.map(Self.privateKeyFormat)
        let publicKey =
            publicText.flatMap { text in
                text.split(separator: "\n").lazy.compactMap { SSHPublicKey(line: String($0)) }.first
            } ?? format?.publicKey
        return SSHKeyFile(
            path: path, publicKey: publicKey.map { SSHPublicKey(blob: $0.blob, comment: path) },
            hasPrivateKey: privateText != nil, isEncrypted: format?.encrypted ?? false)
    }

    /// What a private key file shows without its passphrase: whether it is encrypted, and
    /// (OpenSSH's format) its public key.
    static func privateKeyFormat(_ text: String) -> (encrypted: Bool, publicKey: SSHPublicKey?) {
        let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map(String.init)
        guard let begin = lines.first(where: { $0.hasPrefix("-----BEGIN ") }) else { return (false, nil) }
        if begin.contains("ENCRYPTED") || lines.contains(where: { $0.hasPrefix("Proc-Type:") && $0.contains("ENCRYPTED") }) {
            return (true, nil)
        }
        guard begin == "-----BEGIN OPENSSH PRIVATE KEY-----" else { return (false, nil) }
        let body = lines.drop(while: { $0 != begin }).dropFirst().prefix(while: { !$0.hasPrefix("-----END ") }).joined()
        // "openssh-key-v1\0", cipher, KDF, KDF options, number of keys, the public keys, …
        let magic = Array("openssh-key-v1".utf8) + [0]
        guard let bytes = Base64.decode(body), bytes.starts(with: magic) else { return (false, nil) }
        var wire = SSHWire(bytes[magic.count...])
        guard let cipher = wire.string(), wire.string() != nil, wire.string() != nil,
            let count = wire.uint32(), count >= 1, let key = wire.string()
        else { return (false, nil) }
        return (String(decoding: cipher, as: UTF8.self) != "none", SSHPublicKey(blob: Array(key), comment: ""))
    }
}
