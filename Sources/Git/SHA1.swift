/// SHA-1 (FIPS 180-4), for the checksums git puts at the end of index files.
///
/// Object ids are computed by libgit2; this is only for the index files Cairn writes itself.
struct SHA1 {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    init() {
        pending.reserveCapacity(64)
    }

    /// The digest of `bytes`.
    static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA1()
        hasher.update(bytes)
        return hasher.finish()
    }

    mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var offset = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            offset = take
            if pending.count == 64 {
                pending.withUnsafeBytes { compress($0.baseAddress!) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        while bytes.count - offset >= 64 {
            compress(bytes.baseAddress! + offset)
            offset += 64
        }
        if offset < bytes.count {
            pending.append(contentsOf: bytes[offset...])
        }
    }

    mutating func finish() -> [UInt8] {
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        let used = (pending.count + 1) % 64
        tail += [UInt8](repeating: 0, count: used <= 56 ? 56 - used : 120 - used)
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        let savedLength = length
        update(tail)
        length = savedLength
        var digest: [UInt8] = []
        digest.reserveCapacity(20)
        for word in [state.0, state.1, state.2, state.3, state.4] {
            digest += [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16),
                       UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)]
        }
        return digest
    }

    private mutating func compress(_ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            for t in 0..<16 {
                w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
            }
            for t in 16..<80 {
                w[t] = (w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]).rotatedLeft(by: 1)
            }
            var (a, b, c, d, e) = state
            // The four rounds of twenty steps, each with its own function and constant.
            for t in 0..<20 {
                let temp = a.rotatedLeft(by: 5) &+ ((b & c) | (~b & d)) &+ e &+ 0x5A82_7999 &+ w[t]
                (e, d, c, b, a) = (d, c, b.rotatedLeft(by: 30), a, temp)
            }
            for t in 20..<40 {
                let temp = a.rotatedLeft(by: 5) &+ (b ^ c ^ d) &+ e &+ 0x6ED9_EBA1 &+ w[t]
                (e, d, c, b, a) = (d, c, b.rotatedLeft(by: 30), a, temp)
            }
            for t in 40..<60 {
                let temp = a.rotatedLeft(by: 5) &+ ((b & c) | (b & d) | (c & d)) &+ e &+ 0x8F1B_BCDC &+ w[t]
                (e, d, c, b, a) = (d, c, b.rotatedLeft(by: 30), a, temp)
            }
            for t in 60..<80 {
                let temp = a.rotatedLeft(by: 5) &+ (b ^ c ^ d) &+ e &+ 0xCA62_C1D6 &+ w[t]
                (e, d, c, b, a) = (d, c, b.rotatedLeft(by: 30), a, temp)
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
    }
}

extension UInt32 {
    fileprivate func rotatedLeft(by count: UInt32) -> UInt32 {
        (self << count) | (self >> (32 - count))
    }
}
