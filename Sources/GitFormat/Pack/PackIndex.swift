import CairnSystem

/// Reading a pack index (`pack-<checksum>.idx`, version 2): its magic number and version, a
/// fan-out table of 256 running counts by first byte of id, the sorted ids, a CRC-32 and a
/// 4-byte offset each (an offset with the high bit set names an entry of a table of 8-byte
/// offsets that follows), then the pack's checksum and its own.
package enum PackIndex {
    /// How many objects the pack index at `path` lists: the last entry of its fan-out table;
    /// nil when it cannot be read.
    package static func objectCount(atPath path: String) -> Int? {
        guard let bytes = Self.bytes(atPath: path, offset: 8 + 1_020, count: 4), bytes.count == 4 else { return nil }
        return Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
    }

    /// The object ids the pack index at `path` lists.
    package static func objectIDs(atPath path: String) throws(GitFormatError) -> [ObjectID] {
        guard let file = try MappedFile(path: path) else {
            throw failure(.notFound, "\(path) is gone", "cairn_pack_index", path: path)
        }
        let bytes = file.bytes
        guard bytes.count >= 8 + 1_024, bytes[0] == 0xFF, bytes[1] == 0x74, bytes[2] == 0x4F, bytes[3] == 0x63,
            bytes[7] == 2
        else {
            throw failure(.corrupt, "\(path) is not a version 2 pack index", "cairn_pack_index", path: path)
        }
        let count = Int(bytes[8 + 1_020]) << 24 | Int(bytes[8 + 1_021]) << 16 | Int(bytes[8 + 1_022]) << 8 | Int(bytes[8 + 1_023])
        let start = 8 + 1_024
        guard bytes.count >= start + count * 20 else {
            throw failure(.corrupt, "\(path) is cut short", "cairn_pack_index", path: path)
        }
        return (0..<count).map { ObjectID(rawBytes: Array(bytes[(start + $0 * 20)..<(start + $0 * 20 + 20)])) }
    }

    /// Checks the pack index at `path` against its pack at `pack`: the header, a fan-out
    /// table that never decreases, a size that fits the object count, every object's offset
    /// inside the pack, and the pack's own header. Only the fan-out table and the offsets are
    /// read (4 bytes an object), not the ids, so the check costs a fraction of a millisecond
    /// for 100,000 objects. An index that is gone (combined away meanwhile) passes.
    package static func check(_ path: String, pack: String) throws(GitFormatError) {
        func damaged(_ what: String) -> GitFormatError {
            failure(.corrupt, "pack index \(path) is damaged: \(what)", "cairn_check_pack_index", path: path)
        }
        guard case .success(let packStatus) = Syscalls.status(of: pack, followingLinks: true) else {
            throw damaged("its pack is missing")
        }
        let packSize = UInt64(packStatus.size)
        guard let file = try MappedFile(path: path) else { return }
        let bytes = file.bytes
        func word(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        let fanout = 8
        guard bytes.count >= fanout + 1_024 + 40, word(0) == 0xFF74_4F63, word(4) == 2 else {
            throw damaged("not a version 2 pack index")
        }
        var previous: UInt32 = 0
        for slot in 0..<256 {
            let count = word(fanout + slot * 4)
            guard count >= previous else { throw damaged("its fan-out table decreases") }
            previous = count
        }
        let count = Int(previous)
        let offsets = fanout + 1_024 + 24 * count
        let fixed = offsets + 4 * count + 40
        guard bytes.count >= fixed, (bytes.count - fixed) % 8 == 0 else {
            throw damaged("its size does not fit \(count) objects")
        }
        let largeOffsets = (bytes.count - fixed) / 8
        // An object's header starts after the pack's 12-byte header and before its
        // 20-byte checksum.
        let lowest: UInt64 = 12
        let highest = packSize >= 32 ? packSize - 20 : 0
        for index in 0..<count {
            var offset = UInt64(word(offsets + index * 4))
            if offset & 0x8000_0000 != 0 {
                let large = Int(offset & 0x7FFF_FFFF)
                guard large < largeOffsets else { throw damaged("object \(index) names a large offset it lacks") }
                let at = offsets + 4 * count + large * 8
                offset = UInt64(word(at)) << 32 | UInt64(word(at + 4))
            }
            guard offset >= lowest, offset < highest else {
                throw damaged("object \(index) lies outside its pack")
            }
        }
        // The pack's own header must agree.
        guard let header = Self.bytes(atPath: pack, offset: 0, count: 12) else { throw damaged("its pack cannot be opened") }
        guard header.count == 12, header[0..<4].elementsEqual("PACK".utf8),
            header[4...7].elementsEqual([0, 0, 0, 2]) || header[4...7].elementsEqual([0, 0, 0, 3]),
            Int(header[8]) << 24 | Int(header[9]) << 16 | Int(header[10]) << 8 | Int(header[11]) == count
        else {
            throw damaged("its pack's header does not match it")
        }
    }

    /// `count` bytes of the file at `path` from `offset` (fewer when the file ends first);
    /// nil when it cannot be opened.
    private static func bytes(atPath path: String, offset: Int, count: Int) -> [UInt8]? {
        guard case .success(let fd) = Syscalls.open(path, .reading) else { return nil }
        defer { _ = Syscalls.close(fd) }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { Syscalls.read(fd, into: $0, at: offset) }
        guard case .success(let length) = read else { return [] }
        return Array(bytes.prefix(length))
    }
}
