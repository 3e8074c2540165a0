/// Where the keys of an encrypted store come from (``Configuration/keys``).
public enum KeySource: Sendable, Hashable {
    /// The keys themselves: what an app gives from its platform's secure storage.
    case keyring(Keyring)
    /// A key file (mode 0600; ``Keyring/init(contentsOfKeyFile:)``), read when needed.
    case file(String)
    /// A key file's text (`source` names where it came from, for messages), read when needed.
    case text(String, source: String)

    /// The keyring; a key file that is missing, readable by others or not a key file, and
    /// text that holds no key, are each one clear error.
    public func keyring() throws(CairnError) -> Keyring {
        switch self {
        case .keyring(let keyring): keyring
        case .file(let path): try Keyring(contentsOfKeyFile: path)
        case .text(let text, let source): try Keyring(keyFileText: text, source: source)
        }
    }
}
