/// An SSH public key in its wire form (the blob an ssh-agent lists and a server compares),
/// with the name people know it by.
public struct SSHPublicKey: Sendable, Hashable, CustomStringConvertible {
    /// The key in SSH wire format: its type as a string, then the key's own fields.
    public let blob: [UInt8]
    /// The key's comment (often `user@host`), or where it was read from.
    public let comment: String

    public init(blob: [UInt8], comment: String) {
        self.blob = blob
        self.comment = comment
    }

    /// The key of a line of a `.pub` file (`ssh-ed25519 AAAA… comment`; a text of several lines
    /// is read for its first); nil when the line holds no key whose blob names its type.
    public init?(line: String) {
        let first = line.split(whereSeparator: \.isNewline).first ?? ""
        let fields = first.split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard fields.count >= 2, let blob = Base64.decode(String(fields[1])) else { return nil }
        self.blob = blob
        self.comment = fields.dropFirst(2).joined(separator: " ")
        guard type == String(fields[0]) else { return nil }
    }

    /// The key's type, such as `ssh-ed25519`.
    public var type: String {
        var wire = SSHWire(blob)
        return wire.string().map { String(decoding: $0, as: UTF8.self) } ?? "unknown"
    }

    /// Two keys are the same key when their blobs are.
    public static func == (left: SSHPublicKey, right: SSHPublicKey) -> Bool { left.blob == right.blob }
    public func hash(into hasher: inout Hasher) { hasher.combine(blob) }

    public var description: String { comment.isEmpty ? type + " key" : comment }
}
