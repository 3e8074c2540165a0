/// The parts of the zlib format (RFC 1950, 1951) Cairn writes itself.
package enum Zlib {
    /// A zlib stream holding `data` in stored blocks: header, blocks of at most 65,535 bytes
    /// each with its length and the length's complement, and the Adler-32 checksum.
    package static func stored(_ data: [UInt8]) -> [UInt8] {
        var output: [UInt8] = [0x78, 0x01]
        output.reserveCapacity(data.count + data.count / 65_535 * 5 + 16)
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let final = offset + length == data.count
            output.append(final ? 1 : 0)
            output.append(UInt8(length & 0xFF))
            output.append(UInt8(length >> 8))
            output.append(UInt8(~length & 0xFF))
            output.append(UInt8((~length >> 8) & 0xFF))
            output += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        output.appendBigEndian(adler32(data))
        return output
    }

    /// The Adler-32 checksum of `data`.
    package static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        var offset = 0
        // 5,552 bytes is the most that can be summed before b may overflow 32 bits.
        while offset < data.count {
            let end = min(offset + 5_552, data.count)
            for index in offset..<end {
                a &+= UInt32(data[index])
                b &+= a
            }
            a %= 65_521
            b %= 65_521
            offset = end
        }
        return b << 16 | a
    }
}
