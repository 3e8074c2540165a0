import CZlib

/// The zlib streams (RFC 1950, 1951) of Cairn's loose objects and packs: stored blocks, framed
/// here because storing is all Cairn does (the documents are small and a pack is written on
/// every checkpoint); the checksum is zlib's. A property test checks that zlib's `uncompress`
/// reads every stream back.
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

    /// The Adler-32 checksum of `data`: zlib's `adler32`.
    package static func adler32(_ data: [UInt8]) -> UInt32 {
        data.withUnsafeBufferPointer { buffer in
            var sum = CZlib.adler32(0, nil, 0)
            var offset = 0
            // zlib takes lengths as `uInt`: more than 4 GiB goes in parts.
            repeat {
                let count = min(buffer.count - offset, Int(UInt32.max))
                sum = CZlib.adler32(sum, buffer.baseAddress.map { $0 + offset }, uInt(count))
                offset += count
            } while offset < buffer.count
            return UInt32(truncatingIfNeeded: sum)
        }
    }
}
