@testable import GitFormat
import Testing

/// The zlib streams of stored blocks that Cairn's loose objects and packs hold (git reading
/// them is checked by the loose object and pack tests).
@Suite struct ZlibTests {
    @Test func adler32KnownAnswer() {
        #expect(Zlib.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(Zlib.adler32([]) == 1)
        #expect(Zlib.adler32([UInt8](repeating: 0xFF, count: 100_000)) == Self.adler32Slow([UInt8](repeating: 0xFF, count: 100_000)))
    }

    /// A stream holds its data in blocks of at most 65,535 bytes, each with its length and
    /// the length's complement, the last one marked final, then the checksum.
    @Test(arguments: [0, 1, 65_535, 65_536, 200_000])
    func storedBlocksHoldTheDataAsItIs(size: Int) {
        let data = (0..<size).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let stream = Zlib.stored(data)
        #expect(stream.prefix(2) == [0x78, 0x01])
        var offset = 2
        var read: [UInt8] = []
        var final = false
        while !final {
            final = stream[offset] == 1
            let length = Int(stream[offset + 1]) | Int(stream[offset + 2]) << 8
            let complement = Int(stream[offset + 3]) | Int(stream[offset + 4]) << 8
            #expect(length ^ complement == 0xFFFF)
            #expect(length <= 65_535)
            read += stream[(offset + 5)..<(offset + 5 + length)]
            offset += 5 + length
        }
        #expect(read == data)
        #expect(stream.count == offset + 4)
        #expect(stream.readBigEndianUInt32(at: offset) == Zlib.adler32(data))
    }

    /// Adler-32 by its definition, one modulo a byte: the reference for the fast version.
    static func adler32Slow(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}
