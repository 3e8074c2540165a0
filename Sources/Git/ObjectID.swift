import CGit2

/// A git object id (SHA-1), as 20 bytes.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    /// The 20 raw bytes of the id.
    public let bytes: [UInt8]

    init(_ oid: git_oid) {
        var copy = oid
        bytes = withUnsafeBytes(of: &copy.id) { Array($0) }
    }

    /// Takes 20 raw bytes.
    init(rawBytes: [UInt8]) {
        precondition(rawBytes.count == 20, "an object id is 20 bytes")
        bytes = rawBytes
    }

    /// Parses 40 hexadecimal digits (`git_oid_fromstr`); nil for anything else.
    public init?(hex: String) {
        guard hex.utf8.count == 40 else { return nil }
        var oid = git_oid()
        guard git_oid_fromstr(&oid, hex) == 0 else { return nil }
        self.init(oid)
    }

    /// The id of the empty tree. git and libgit2 know it without the object being stored, so
    /// a first commit can be built from it without writing an object nothing will point to.
    public static let emptyTree = ObjectID(hex: "4b825dc642cb6eb9a060e54bf8d69288fbee4904")!

    /// The 40-digit hexadecimal form.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(40)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The first seven digits, as `git log --oneline` shows them.
    public var short: String { String(hex.prefix(7)) }

    public var description: String { hex }

    /// The id as libgit2's `git_oid`.
    var raw: git_oid {
        var oid = git_oid()
        withUnsafeMutableBytes(of: &oid.id) { $0.copyBytes(from: bytes) }
        return oid
    }
}
