/// A git object id (SHA-1), as 20 bytes.
public struct ObjectID: Hashable, Sendable, CustomStringConvertible {
    /// The 20 raw bytes of the id.
    public let bytes: [UInt8]

    /// Takes 20 raw bytes.
    package init(rawBytes: [UInt8]) {
        precondition(rawBytes.count == 20, "an object id is 20 bytes")
        bytes = rawBytes
    }

    /// Parses 40 hexadecimal digits, lower or upper case (as `git_oid_fromstr` does); nil for
    /// anything else.
    public init?(hex: String) {
        let digits = hex.utf8
        guard digits.count == 40 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        var high: UInt8?
        for character in digits {
            guard let value = Self.value(ofDigit: character) else { return nil }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        self.bytes = bytes
    }

    /// The value of one hexadecimal digit.
    private static func value(ofDigit character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The id of the empty tree. git and libgit2 know it without the object being stored, so
    /// a first commit can be built from it without writing an object nothing will point to.
    public static let emptyTree = ObjectID(hex: "4b825dc642cb6eb9a060e54bf8d69288fbee4904")!

    /// The 40-digit hexadecimal form.
    public var hex: String { bytes.hexDigits }

    /// The first seven digits, as `git log --oneline` shows them.
    public var short: String { String(hex.prefix(7)) }

    public var description: String { hex }
}
