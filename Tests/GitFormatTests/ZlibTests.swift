import CZlib
import CairnMerge
import CairnTestSupport
import Testing

@testable import GitFormat

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

    /// zlib itself reads back every stream Cairn frames, whatever its size: the framing is
    /// hand-written, zlib is the reference.
    @Test func zlibReadsEveryStreamBack() {
        var generator = SplitMix(seed: 1950)
        let sizes = [0, 1, 65_534, 65_535, 65_536, 131_070, 131_071] + (0..<40).map { _ in Int.random(in: 0...300_000, using: &generator) }
        for size in sizes {
            let data = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let stream = Zlib.stored(data)
            var read = [UInt8](repeating: 0, count: max(size, 1))
            var length = uLongf(read.count)
            let status = stream.withUnsafeBufferPointer { source in
                read.withUnsafeMutableBufferPointer { target in
                    uncompress(target.baseAddress, &length, source.baseAddress, uLong(source.count))
                }
            }
            #expect(status == Z_OK, "size \(size)")
            #expect(Array(read.prefix(Int(length))) == data, "size \(size)")
        }
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
