/// git's index file format (`Documentation/gitformat-index.txt`): reading versions 2 to 4,
/// writing version 2, and the split index's `link` extension.
///
/// A file is: `DIRC`, version, entry count; the entries; extensions (a four-letter
/// signature and a length each; upper-case ones are optional and skipped, lower-case ones
/// are required and only `link` is known); and the SHA-1 of everything before it.
struct IndexFile {
    var version: UInt32
    var entries: [IndexEntry]
    /// The split index's link to its shared index, when the file has one.
    var link: Link?

    struct Link {
        var sharedID: ObjectID
        var deleted: [Int]
        var replaced: [Int]
    }

    static let signature: [UInt8] = Array("DIRC".utf8)
    static let trailerSize = 20

    /// Parses a whole index file.
    static func parse(_ bytes: UnsafeRawBufferPointer, path: String) throws(GitError) -> IndexFile {
        func corrupt(_ what: String) -> GitError {
            failure(.generic, "\(path) is not a valid index file: \(what)", "cairn_index_read")
        }
        guard bytes.count >= 12 + trailerSize, bytes.starts(with: signature) else { throw corrupt("no DIRC header") }
        let version = bytes.loadBigEndianUInt32(at: 4)
        guard (2...4).contains(version) else { throw corrupt("version \(version)") }
        let count = Int(bytes.loadBigEndianUInt32(at: 8))
        let end = bytes.count - trailerSize
        var offset = 12
        var entries: [IndexEntry] = []
        entries.reserveCapacity(min(count, bytes.count / 64))
        var previousPath: [UInt8] = []
        for _ in 0..<count {
            guard let (entry, next) = readEntry(bytes, at: offset, version: version, end: end, previousPath: previousPath) else {
                throw corrupt("entry \(entries.count) is cut short")
            }
            entries.append(entry)
            previousPath = entry.pathBytes
            offset = next
        }
        var link: Link?
        while offset + 8 <= end {
            let name = Array(bytes[offset..<offset + 4])
            let size = Int(bytes.loadBigEndianUInt32(at: offset + 4))
            let body = offset + 8
            guard body + size <= end else { throw corrupt("extension cut short") }
            if name == Array("link".utf8) {
                link = try parseLink(Array(bytes[body..<body + size]), corrupt: corrupt)
            } else if name[0] < UInt8(ascii: "A") || name[0] > UInt8(ascii: "Z") {
                throw corrupt("unsupported required extension \(String(decoding: name, as: UTF8.self))")
            }
            offset = body + size
        }
        return IndexFile(version: version, entries: entries, link: link)
    }

    private static func parseLink(_ body: [UInt8], corrupt: (String) -> GitError) throws(GitError) -> Link {
        guard body.count >= 20 else { throw corrupt("link extension cut short") }
        let sharedID = ObjectID(rawBytes: Array(body[0..<20]))
        guard body.count > 20 else { return Link(sharedID: sharedID, deleted: [], replaced: []) }
        guard let deleted = EWAHBitmap.decode(body[20...]),
              let replaced = EWAHBitmap.decode(body[(20 + deleted.length)...]),
              20 + deleted.length + replaced.length == body.count else {
            throw corrupt("bad bitmaps in the link extension")
        }
        return Link(sharedID: sharedID, deleted: deleted.positions, replaced: replaced.positions)
    }

    /// Reads the entry at `offset`; nil when it runs past `end`. Version 4 names are
    /// prefix-compressed against `previousPath`.
    static func readEntry(_ bytes: UnsafeRawBufferPointer, at offset: Int, version: UInt32, end: Int,
                          previousPath: [UInt8]) -> (IndexEntry, Int)? {
        guard offset + 62 <= end else { return nil }
        var entry = IndexEntry(path: "", id: ObjectID(rawBytes: Array(bytes[(offset + 40)..<(offset + 60)])))
        entry.ctimeSeconds = bytes.loadBigEndianUInt32(at: offset)
        entry.ctimeNanoseconds = bytes.loadBigEndianUInt32(at: offset + 4)
        entry.mtimeSeconds = bytes.loadBigEndianUInt32(at: offset + 8)
        entry.mtimeNanoseconds = bytes.loadBigEndianUInt32(at: offset + 12)
        entry.device = bytes.loadBigEndianUInt32(at: offset + 16)
        entry.inode = bytes.loadBigEndianUInt32(at: offset + 20)
        entry.mode = bytes.loadBigEndianUInt32(at: offset + 24)
        entry.uid = bytes.loadBigEndianUInt32(at: offset + 28)
        entry.gid = bytes.loadBigEndianUInt32(at: offset + 32)
        entry.size = bytes.loadBigEndianUInt32(at: offset + 36)
        let flags = UInt16(bytes[offset + 60]) << 8 | UInt16(bytes[offset + 61])
        entry.flags = flags & 0xF000
        var nameStart = offset + 62
        if flags & 0x4000 != 0 {
            guard version >= 3, nameStart + 2 <= end else { return nil }
            entry.extendedFlags = UInt16(bytes[nameStart]) << 8 | UInt16(bytes[nameStart + 1])
            nameStart += 2
        }
        if version == 4 {
            var cursor = nameStart
            guard let (strip, afterNumber) = readVarint(bytes, at: cursor, end: end),
                  strip <= previousPath.count else { return nil }
            cursor = afterNumber
            guard let terminator = firstZero(bytes, from: cursor, end: end) else { return nil }
            entry.pathBytes = Array(previousPath[..<(previousPath.count - strip)]) + Array(bytes[cursor..<terminator])
            return (entry, terminator + 1)
        }
        let length = Int(flags & 0x0FFF)
        let nameEnd: Int
        if length < 0x0FFF {
            nameEnd = nameStart + length
            guard nameEnd <= end else { return nil }
        } else {
            guard let terminator = firstZero(bytes, from: nameStart + 0x0FFF, end: end) else { return nil }
            nameEnd = terminator
        }
        entry.pathBytes = Array(bytes[nameStart..<nameEnd])
        let entrySize = ((nameStart - offset) + (nameEnd - nameStart) + 8) & ~7
        guard offset + entrySize <= end else { return nil }
        return (entry, offset + entrySize)
    }

    private static func readVarint(_ bytes: UnsafeRawBufferPointer, at offset: Int, end: Int) -> (Int, Int)? {
        var cursor = offset
        guard cursor < end else { return nil }
        var byte = bytes[cursor]
        var value = Int(byte & 0x7F)
        while byte & 0x80 != 0 {
            cursor += 1
            guard cursor < end, value < (1 << 40) else { return nil }
            byte = bytes[cursor]
            value = ((value + 1) << 7) | Int(byte & 0x7F)
        }
        return (value, cursor + 1)
    }

    private static func firstZero(_ bytes: UnsafeRawBufferPointer, from start: Int, end: Int) -> Int? {
        var cursor = start
        while cursor < end {
            if bytes[cursor] == 0 { return cursor }
            cursor += 1
        }
        return nil
    }

    /// Serializes entries as a version 2 index (entries with an empty path are the split
    /// index's replacements), followed by a `link` extension when given, and the checksum.
    /// Returns the bytes and, for each entry, its offset in them.
    static func serialize(_ entries: [IndexEntry], link: Link?) -> (bytes: [UInt8], offsets: [UInt32]) {
        var bytes: [UInt8] = signature
        bytes.reserveCapacity(12 + entries.count * 112 + 64)
        bytes.appendBigEndian(UInt32(2))
        bytes.appendBigEndian(UInt32(entries.count))
        var offsets: [UInt32] = []
        offsets.reserveCapacity(entries.count)
        for entry in entries {
            offsets.append(UInt32(bytes.count))
            let start = bytes.count
            for value in [entry.ctimeSeconds, entry.ctimeNanoseconds, entry.mtimeSeconds, entry.mtimeNanoseconds,
                          entry.device, entry.inode, entry.mode, entry.uid, entry.gid, entry.size] {
                bytes.appendBigEndian(value)
            }
            bytes += entry.id.bytes
            let length = UInt16(min(entry.pathBytes.count, 0x0FFF))
            bytes.appendBigEndian((entry.flags & 0x3000) | length)
            bytes += entry.pathBytes
            let size = (62 + entry.pathBytes.count + 8) & ~7
            bytes += [UInt8](repeating: 0, count: size - (bytes.count - start))
        }
        if let link {
            let body = link.sharedID.bytes + EWAHBitmap.encode(link.deleted) + EWAHBitmap.encode(link.replaced)
            bytes += Array("link".utf8)
            bytes.appendBigEndian(UInt32(body.count))
            bytes += body
        }
        bytes += SHA1.hash(bytes)
        return (bytes, offsets)
    }
}

extension UnsafeRawBufferPointer {
    func loadBigEndianUInt32(at offset: Int) -> UInt32 {
        UInt32(bigEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}
