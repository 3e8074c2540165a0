import CairnSystem

extension Keyring {
    /// The keyring of a key file, as the command line reads it: one key per line (base64 of
    /// 32 bytes, or 64 hex digits), the first the current key and the later ones previous
    /// keys, newest first; blank lines and lines starting with `#` are comments.
    ///
    /// The file must be a regular file that only its owner can read or write (mode 0600 or
    /// 0400): a key that others can read is no secret, and is refused before it is used.
    public init(contentsOfKeyFile path: String) throws(CairnError) {
        let bytes = try FileSystem.read(path) { status throws(CairnError) in
            guard status.kind == .file else {
                throw CairnError(.invalidInput, "key file \(path) is not a regular file; give the file that holds the store's key")
            }
            guard status.permissions & 0o077 == 0 else {
                let mode = String(status.permissions, radix: 8)
                let padded = String(repeating: "0", count: max(0, 4 - mode.count)) + mode
                throw CairnError(
                    .invalidInput, "key file \(path) has mode \(padded); a key file must be readable by its owner alone (chmod 600 \(path))"
                )
            }
        }
        guard let bytes else {
            throw CairnError(.notFound, "key file \(path) does not exist; give the file that holds the store's key")
        }
        self = try Keyring(keyFileText: String(decoding: bytes, as: UTF8.self), source: "key file \(path)")
    }

    /// The keyring of a key file's text (``init(contentsOfKeyFile:)``); `source` names the
    /// file in errors.
    public init(keyFileText text: String, source: String) throws(CairnError) {
        var keys: [(key: StoreKey, line: Int)] = []
        // A line break of either kind ("\r\n" is one Character, and a newline).
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let words = line.trimmedOfSpaces
            if words.isEmpty || words.hasPrefix("#") { continue }
            let number = index + 1
            let key = try StoreKey(text: String(words), source: "\(source), line \(number),")
            if let earlier = keys.first(where: { $0.key == key }) {
                throw CairnError(.invalidInput, "\(source), line \(number) repeats the key of line \(earlier.line); list each key once")
            }
            keys.append((key, number))
        }
        guard let current = keys.first?.key else {
            throw CairnError(
                .invalidInput, "\(source) holds no key; write the store's key on its first line, base64 of \(StoreKey.byteCount) bytes")
        }
        self.init(current: current, previous: keys.dropFirst().map(\.key))
    }

    /// The keyring as a key file holds it: the current key, then the previous ones, in base64.
    public var keyFileText: String {
        keys.map { $0.base64 + "\n" }.joined()
    }

    /// Writes the keyring as a key file at `path`, readable by its owner alone (0600), in one
    /// atomic, durable step: the file holds the old keys or the new, never part of either.
    public func write(toKeyFile path: String) throws(CairnError) {
        try FileSystem.writeAtomically(Array(keyFileText.utf8), to: path, durable: true, permissions: 0o600)
    }
}
