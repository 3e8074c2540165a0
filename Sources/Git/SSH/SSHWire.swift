/// A reader of SSH wire encoding (RFC 4251): big-endian 32-bit integers, and strings as a
/// length and bytes. Each read moves past what it read; nil when the bytes run out.
struct SSHWire {
    private(set) var bytes: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) {
        self.bytes = bytes[...]
    }

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
    }

    mutating func byte() -> UInt8? {
        bytes.popFirst()
    }

    mutating func uint32() -> UInt32? {
        guard bytes.count >= 4 else { return nil }
        let value = bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        bytes = bytes.dropFirst(4)
        return value
    }

    mutating func string() -> ArraySlice<UInt8>? {
        guard let length = uint32(), bytes.count >= Int(length) else { return nil }
        let value = bytes.prefix(Int(length))
        bytes = bytes.dropFirst(Int(length))
        return value
    }

    /// `value` as an SSH string: its length, then its bytes.
    static func string<C: Collection>(_ value: C) -> [UInt8] where C.Element == UInt8 {
        uint32(UInt32(value.count)) + value
    }

    static func uint32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
