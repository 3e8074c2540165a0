#if canImport(Glibc)
import Glibc
#endif

/// The shared part of a split index, `.git/sharedindex.<id>`: a full, sorted index that stays
/// as it is while the small `.git/index` records what changed since.
///
/// It is mapped, not read, and found by binary search through a side table of entry offsets
/// (`.git/cairn/sharedindex.<id>.offsets`, little-endian 32-bit), so looking up a path costs
/// a few pages whatever the size of the store.
final class SharedIndex {
    let id: ObjectID
    let count: Int
    private let file: MappedFile
    private let offsets: [UInt32]

    /// Opens the shared index `id`; nil when it is not in a version (2 or 3) that allows
    /// random access, so the caller loads it whole instead.
    init?(gitdir: String, id: ObjectID) throws(GitError) {
        let path = gitdir + "sharedindex." + id.hex
        guard let file = try MappedFile(path: path) else {
            throw failure(.notFound, "the index links to \(path), which is missing", "cairn_index_read")
        }
        let bytes = file.bytes
        guard bytes.count >= 32, bytes.starts(with: IndexFile.signature) else {
            throw failure(.generic, "\(path) is not a valid index file", "cairn_index_read")
        }
        let version = bytes.loadBigEndianUInt32(at: 4)
        guard version == 2 || version == 3 else { return nil }
        self.id = id
        self.file = file
        count = Int(bytes.loadBigEndianUInt32(at: 8))
        let table = Self.offsetsPath(gitdir: gitdir, id: id)
        let end = bytes.count - IndexFile.trailerSize
        if let stored = try Self.readOffsets(table), stored.count == count, Self.plausible(stored, end: end) {
            offsets = stored
        } else {
            offsets = try Self.scanOffsets(bytes, count: count, version: version, path: path)
            try? Self.writeOffsets(offsets, to: table)
        }
    }

    static func offsetsPath(gitdir: String, id: ObjectID) -> String {
        gitdir + "cairn/sharedindex." + id.hex + ".offsets"
    }

    /// The entry at a position.
    func entry(at position: Int) throws(GitError) -> IndexEntry {
        let end = file.bytes.count - IndexFile.trailerSize
        guard let (entry, _) = IndexFile.readEntry(file.bytes, at: Int(offsets[position]), version: 3, end: end, previousPath: []) else {
            throw corrupt()
        }
        return entry
    }

    /// The position of the stage-0 entry for `path`, by binary search.
    func position(of path: [UInt8]) throws(GitError) -> Int? {
        var low = 0
        var high = count - 1
        while low <= high {
            let middle = (low + high) / 2
            let order = try comparePath(at: middle, with: path)
            if order == 0 { return middle }
            if order < 0 { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    /// All entries, in order.
    func allEntries() throws(GitError) -> [IndexEntry] {
        var entries: [IndexEntry] = []
        entries.reserveCapacity(count)
        for position in 0..<count { entries.append(try entry(at: position)) }
        return entries
    }

    private func corrupt() -> GitError {
        failure(.generic, "sharedindex.\(id.hex) is not a valid index file: an entry runs past its end", "cairn_index_read")
    }

    /// Whether a table of offsets can belong to this file: rising, each leaving room for an
    /// entry. (Each entry is read with bounds checks too; this catches a stale table early.)
    private static func plausible(_ offsets: [UInt32], end: Int) -> Bool {
        var previous = 11
        for offset in offsets {
            guard Int(offset) > previous, Int(offset) + 62 <= end else { return false }
            previous = Int(offset)
        }
        return true
    }

    private func comparePath(at position: Int, with path: [UInt8]) throws(GitError) -> Int {
        let bytes = file.bytes
        let end = bytes.count - IndexFile.trailerSize
        let offset = Int(offsets[position])
        let flags = UInt16(bytes[offset + 60]) << 8 | UInt16(bytes[offset + 61])
        let start = offset + 62 + (flags & 0x4000 != 0 ? 2 : 0)
        var length = Int(flags & 0x0FFF)
        if length == 0x0FFF {
            while start + length < end, bytes[start + length] != 0 { length += 1 }
        }
        guard start + length <= end else { throw corrupt() }
        let common = min(length, path.count)
        let result = path.withUnsafeBytes { memcmp(bytes.baseAddress! + start, $0.baseAddress!, common) }
        if result != 0 { return Int(result) }
        if length != path.count { return length < path.count ? -1 : 1 }
        // Same path: stage 0 sorts first, and is the one wanted.
        return Int((flags >> 12) & 0x3)
    }

    private static func scanOffsets(_ bytes: UnsafeRawBufferPointer, count: Int, version: UInt32,
                                    path: String) throws(GitError) -> [UInt32] {
        var offsets: [UInt32] = []
        offsets.reserveCapacity(min(count, bytes.count / 64))
        var offset = 12
        let end = bytes.count - IndexFile.trailerSize
        for _ in 0..<count {
            guard let (_, next) = IndexFile.readEntry(bytes, at: offset, version: version, end: end, previousPath: []) else {
                throw failure(.generic, "\(path) is not a valid index file: an entry is cut short", "cairn_index_read")
            }
            offsets.append(UInt32(offset))
            offset = next
        }
        return offsets
    }

    private static func readOffsets(_ path: String) throws(GitError) -> [UInt32]? {
        guard let file = try MappedFile(path: path), file.bytes.count % 4 == 0 else { return nil }
        return (0..<(file.bytes.count / 4)).map {
            UInt32(littleEndian: file.bytes.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self))
        }
    }

    static func writeOffsets(_ offsets: [UInt32], to path: String) throws(GitError) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(offsets.count * 4)
        for offset in offsets {
            withUnsafeBytes(of: offset.littleEndian) { bytes += $0 }
        }
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        mkdir(folder, 0o755)
        try FileWriter.replace(path, with: bytes)
    }
}
