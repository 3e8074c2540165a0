/// git's index file format (`Documentation/gitformat-index.txt`): reading versions 2 to 4,
/// writing versions 2 and 3, and the split index's `link` extension.
///
/// A file is: `DIRC`, version, entry count; the entries, sorted by name then stage;
/// extensions (a four-letter signature and a length each; upper-case ones are optional and
/// skipped, lower-case ones are required and only `link` is known); and the SHA-1 of
/// everything before it.
struct IndexFile {
    var version: UInt32
    var entries: [IndexEntry]
    /// The split index's link to its shared index, when the file has one.
    var link: Link?

    /// What a split `.git/index` records against its shared part: the shared entries it
    /// deletes, and those it replaces (by the first entries of the file, in order, which
    /// have empty names and take the names of the entries they replace).
    struct Link {
        var sharedID: ObjectID
        var deleted: [Int]
        var replaced: [Int]
    }

    static let signature: [UInt8] = Array("DIRC".utf8)
    static let trailerSize = 20
    /// Flag bits of an entry: assume-valid, extended flags follow, and the stage.
    static let assumeValidFlag: UInt16 = 0x8000
    static let extendedFlag: UInt16 = 0x4000
    static let stageMask: UInt16 = 0x3000

    /// Checks the header of an index file and returns its version (2 to 4).
    static func header(_ bytes: UnsafeRawBufferPointer, path: String) throws(GitFormatError) -> UInt32 {
        guard bytes.count >= 12 + trailerSize, bytes.starts(with: signature) else {
            throw failure(.corrupt, "\(path) is not a valid index file: no DIRC header", "cairn_index_read")
        }
        let version = bytes.loadBigEndianUInt32(at: 4)
        guard (2...4).contains(version) else {
            throw failure(.corrupt, "\(path) is not a valid index file: version \(version)", "cairn_index_read")
        }
        return version
    }

    /// Parses a whole index file.
    static func parse(_ bytes: UnsafeRawBufferPointer, path: String) throws(GitFormatError) -> IndexFile {
        func corrupt(_ what: String) -> GitFormatError {
            failure(.corrupt, "\(path) is not a valid index file: \(what)", "cairn_index_read")
        }
        let version = try header(bytes, path: path)
        let count = Int(bytes.loadBigEndianUInt32(at: 8))
        let end = bytes.count - trailerSize
        var offset = 12
        var entries: [IndexEntry] = []
        entries.reserveCapacity(min(count, bytes.count / 64))
        var previousPath: [UInt8] = []
        for _ in 0..<count {
            // Named, not destructured: `guard let (a, b) = …` in a function with typed throws
            // is miscompiled by Swift 6.3 in release builds (the values come out corrupt).
            guard let read = readEntry(bytes, at: offset, version: version, end: end, previousPath: previousPath) else {
                throw corrupt("entry \(entries.count) is cut short")
            }
            entries.append(read.entry)
            previousPath = read.entry.pathBytes
            offset = read.next
        }
        let link = try readExtensions(bytes, from: offset, end: end, corrupt: corrupt)
        return IndexFile(version: version, entries: entries, link: link)
    }

    /// Reads the extensions from `offset` to `end`: the `link` one if any; an unknown
    /// required (lower-case) one is an error, as in git.
    static func readExtensions(
        _ bytes: UnsafeRawBufferPointer, from offset: Int, end: Int,
        corrupt: (String) -> GitFormatError
    ) throws(GitFormatError) -> Link? {
        var offset = offset
        var link: Link?
        while offset + 8 <= end {
            let name = Array(bytes[offset..<offset + 4])
            let size = Int(bytes.loadBigEndianUInt32(at: offset + 4))
            let body = offset + 8
            guard size <= end - body else { throw corrupt("extension cut short") }
            if name == Array("link".utf8) {
                link = try parseLink(Array(bytes[body..<body + size]), corrupt: corrupt)
            } else if name[0] < UInt8(ascii: "A") || name[0] > UInt8(ascii: "Z") {
                throw corrupt("unsupported required extension \(String(decoding: name, as: UTF8.self))")
            }
            offset = body + size
        }
        return link
    }

    private static func parseLink(_ body: [UInt8], corrupt: (String) -> GitFormatError) throws(GitFormatError) -> Link {
        guard body.count >= 20 else { throw corrupt("link extension cut short") }
        let sharedID = ObjectID(rawBytes: Array(body[0..<20]))
        guard body.count > 20 else { return Link(sharedID: sharedID, deleted: [], replaced: []) }
        guard let deleted = EWAHBitmap.decode(body[20...]),
            let replaced = EWAHBitmap.decode(body[(20 + deleted.length)...]),
            20 + deleted.length + replaced.length == body.count
        else {
            throw corrupt("bad bitmaps in the link extension")
        }
        return Link(sharedID: sharedID, deleted: deleted.positions, replaced: replaced.positions)
    }

    /// Reads the entry at `offset`; nil when it runs past `end`. Version 4 names are
    /// prefix-compressed against `previousPath`.
    static func readEntry(
        _ bytes: UnsafeRawBufferPointer, at offset: Int, version: UInt32, end: Int,
        previousPath: [UInt8]
    ) -> (entry: IndexEntry, next: Int)? {
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
        entry.flags = flags & (assumeValidFlag | stageMask)
        var nameStart = offset + 62
        if flags & extendedFlag != 0 {
            guard version >= 3, nameStart + 2 <= end else { return nil }
            entry.extendedFlags = UInt16(bytes[nameStart]) << 8 | UInt16(bytes[nameStart + 1])
            nameStart += 2
        }
        if version == 4 {
            var cursor = nameStart
            guard let number = readVarint(bytes, at: cursor, end: end), number.value <= previousPath.count else { return nil }
            let strip = number.value
            cursor = number.next
            guard let terminator = firstZero(bytes, from: cursor, end: end) else { return nil }
            entry.pathBytes = Array(previousPath[..<(previousPath.count - strip)]) + Array(bytes[cursor..<terminator])
            return (entry, terminator + 1)
        }
        let length = nameLength(bytes, flags: flags, nameStart: nameStart, end: end)
        guard nameStart + length <= end else { return nil }
        entry.pathBytes = Array(bytes[nameStart..<(nameStart + length)])
        let entrySize = ((nameStart - offset) + length + 8) & ~7
        guard offset + entrySize <= end else { return nil }
        return (entry, offset + entrySize)
    }

    /// Where the version 2 or 3 entry at `offset` ends, without reading it; nil when it runs
    /// past `end`.
    static func entryEnd(_ bytes: UnsafeRawBufferPointer, at offset: Int, version: UInt32, end: Int) -> Int? {
        guard offset + 62 <= end else { return nil }
        let flags = UInt16(bytes[offset + 60]) << 8 | UInt16(bytes[offset + 61])
        var nameStart = offset + 62
        if flags & extendedFlag != 0 {
            guard version >= 3 else { return nil }
            nameStart += 2
        }
        let length = nameLength(bytes, flags: flags, nameStart: nameStart, end: end)
        let next = offset + (((nameStart - offset) + length + 8) & ~7)
        return next <= end ? next : nil
    }

    /// The length of a version 2 or 3 entry's name: from its flags, or, for names of 4,095
    /// bytes and more, up to the NUL that ends it.
    static func nameLength(_ bytes: UnsafeRawBufferPointer, flags: UInt16, nameStart: Int, end: Int) -> Int {
        let length = Int(flags & 0x0FFF)
        guard length == 0x0FFF else { return length }
        return (firstZero(bytes, from: nameStart + length, end: end) ?? end) - nameStart
    }

    private static func readVarint(_ bytes: UnsafeRawBufferPointer, at offset: Int, end: Int) -> (value: Int, next: Int)? {
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

    // MARK: - Writing

    /// A header for `count` entries; ``finish(_:count:link:)`` sets the count.
    static func startFile(version: UInt32, capacity: Int) -> [UInt8] {
        var bytes = signature
        bytes.reserveCapacity(capacity + 64)
        bytes.appendBigEndian(version)
        bytes.appendBigEndian(UInt32(0))
        return bytes
    }

    /// Appends one entry (an empty path: a split index's replacement, named by its position).
    /// Extended flags are written only into a file of version 3.
    static func append(_ entry: IndexEntry, to bytes: inout [UInt8], version: UInt32) {
        let start = bytes.count
        for value in [
            entry.ctimeSeconds, entry.ctimeNanoseconds, entry.mtimeSeconds, entry.mtimeNanoseconds,
            entry.device, entry.inode, entry.mode, entry.uid, entry.gid, entry.size,
        ] {
            bytes.appendBigEndian(value)
        }
        bytes += entry.id.bytes
        let extended = version >= 3 && entry.extendedFlags != 0
        let length = UInt16(min(entry.pathBytes.count, 0x0FFF))
        bytes.appendBigEndian((entry.flags & (assumeValidFlag | stageMask)) | (extended ? extendedFlag : 0) | length)
        if extended { bytes.appendBigEndian(entry.extendedFlags) }
        bytes += entry.pathBytes
        let size = (bytes.count - start + 8) & ~7
        bytes += [UInt8](repeating: 0, count: size - (bytes.count - start))
    }

    /// Sets the entry count, appends the `link` extension when given, and the checksum.
    static func finish(_ bytes: inout [UInt8], count: Int, link: Link?) {
        withUnsafeBytes(of: UInt32(count).bigEndian) { bytes.replaceSubrange(8..<12, with: $0) }
        if let link {
            let body = link.sharedID.bytes + EWAHBitmap.encode(link.deleted) + EWAHBitmap.encode(link.replaced)
            bytes += Array("link".utf8)
            bytes.appendBigEndian(UInt32(body.count))
            bytes += body
        }
        bytes += SHA1.hash(bytes)
    }

    /// A whole file of `entries` (sorted by name then stage), in version 2, or 3 when an
    /// entry has extended flags.
    static func serialize(_ entries: [IndexEntry], link: Link?) -> [UInt8] {
        let version: UInt32 = entries.contains { $0.extendedFlags != 0 } ? 3 : 2
        var bytes = startFile(version: version, capacity: entries.count * 112)
        for entry in entries { append(entry, to: &bytes, version: version) }
        finish(&bytes, count: entries.count, link: link)
        return bytes
    }
}
