/// A set of positions in git's EWAH compressed bitmap format, as the split index's `link`
/// extension stores which entries of the shared index are deleted or replaced.
///
/// Layout: bit count (u32), word count (u32), the 64-bit words, the position of the last
/// run-length word (u32); all big-endian. A run-length word holds a running bit (bit 0), the
/// number of words that repeat it (bits 1–32), and the number of literal words that follow
/// (bits 33–63). Bit `n` of the set is bit `n % 64` of word `n / 64`.
enum EWAHBitmap {
    /// Encodes sorted, distinct positions.
    static func encode(_ positions: [Int]) -> [UInt8] {
        var words: [UInt64] = []
        if let last = positions.last {
            words = [UInt64](repeating: 0, count: last / 64 + 1)
            for position in positions {
                words[position / 64] |= 1 << UInt64(position % 64)
            }
        }
        var encoded: [UInt64] = []
        var lastMarker = 0
        var index = 0
        repeat {
            var zeros = 0
            while index + zeros < words.count, words[index + zeros] == 0, zeros < Int(UInt32.max) { zeros += 1 }
            var literals = 0
            while index + zeros + literals < words.count, words[index + zeros + literals] != 0,
                literals < (1 << 31) - 1
            { literals += 1 }
            lastMarker = encoded.count
            encoded.append(UInt64(zeros) << 1 | UInt64(literals) << 33)
            encoded += words[(index + zeros)..<(index + zeros + literals)]
            index += zeros + literals
        } while index < words.count

        var bytes: [UInt8] = []
        bytes.reserveCapacity(12 + encoded.count * 8)
        bytes.appendBigEndian(UInt32(positions.last.map { $0 + 1 } ?? 0))
        bytes.appendBigEndian(UInt32(encoded.count))
        for word in encoded { bytes.appendBigEndian(word) }
        bytes.appendBigEndian(UInt32(lastMarker))
        return bytes
    }

    /// More positions than any index has entries (git's index is limited to 32-bit counts, but
    /// no store has 16 million files).
    static let maxPositions = 1 << 24

    /// Decodes a bitmap at the start of `bytes`; returns the positions and the bytes used.
    static func decode(_ bytes: ArraySlice<UInt8>) -> (positions: [Int], length: Int)? {
        guard bytes.count >= 8 else { return nil }
        let start = bytes.startIndex
        let wordCount = Int(bytes.readBigEndianUInt32(at: start + 4))
        let length = 8 + wordCount * 8 + 4
        guard wordCount < (1 << 28), bytes.count >= length else { return nil }
        func word(_ index: Int) -> UInt64 { bytes.readBigEndianUInt64(at: start + 8 + index * 8) }
        var positions: [Int] = []
        var bit = 0
        var pointer = 0
        while pointer < wordCount {
            let marker = word(pointer)
            let run = Int((marker >> 1) & 0xFFFF_FFFF) * 64
            if marker & 1 == 1 {
                // A run of set bits longer than any index: a damaged bitmap, not a request
                // for billions of positions.
                guard positions.count + run <= maxPositions else { return nil }
                positions += bit..<(bit + run)
            }
            bit += run
            pointer += 1
            let literals = Int(marker >> 33)
            guard pointer + literals <= wordCount else { return nil }
            for _ in 0..<literals {
                var value = word(pointer)
                while value != 0 {
                    let offset = value.trailingZeroBitCount
                    positions.append(bit + offset)
                    value &= value - 1
                }
                bit += 64
                pointer += 1
            }
        }
        return (positions, length)
    }
}
