import CairnMerge
import CairnTestSupport
import Testing

@testable import GitFormat

/// The checksum a pack index keeps for every object's packed bytes.
@Suite struct CRC32Tests {
    @Test func knownAnswers() {
        #expect(CRC32.checksum(Array("123456789".utf8)[...]) == 0xCBF4_3926)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)[...]) == 0x414F_A339)
        #expect(CRC32.checksum([][...]) == 0)
    }

    /// The table-driven checksum agrees with the definition, bit by bit, on random bytes and
    /// on slices that do not start at zero (a pack's objects are slices of the pack).
    @Test func agreesWithTheBitwiseDefinition() {
        var generator = SplitMix(seed: 32)
        for _ in 0..<200 {
            let bytes = (0..<Int.random(in: 0...600, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let start = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &generator)
            #expect(CRC32.checksum(bytes[start...]) == Self.bitwise(bytes[start...]))
        }
    }

    /// CRC-32 by its definition: the reflected polynomial applied one bit at a time.
    static func bitwise(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
