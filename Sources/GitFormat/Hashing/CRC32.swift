import CZlib

/// CRC-32 (the zlib and PNG one, reflected polynomial 0xEDB88320), which a pack index keeps
/// for every object's packed bytes: zlib's `crc32`.
package enum CRC32 {
    /// The checksum of `bytes`.
    package static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            var crc = crc32(0, nil, 0)
            var offset = 0
            // zlib takes lengths as `uInt`: more than 4 GiB goes in parts.
            repeat {
                let count = min(buffer.count - offset, Int(UInt32.max))
                crc = crc32(crc, buffer.baseAddress.map { $0 + offset }, uInt(count))
                offset += count
            } while offset < buffer.count
            return UInt32(truncatingIfNeeded: crc)
        }
    }
}
