import CairnSystem

/// An index file in version 2 or 3 — a whole `.git/index`, or a split index's shared part
/// `.git/sharedindex.<id>` — mapped, not read, with the offset of every entry.
///
/// Entries of these versions carry their name's length, so finding where each starts costs a
/// pass over the flags, not a parse. With the offsets a path is found by binary search, and a
/// new file is made by copying the runs of entries that did not change byte for byte, so
/// staging a few files in a large index costs a copy, not a parse and a serialization.
final class MappedIndex {
    let path: String
    let version: UInt32
    let count: Int
    /// Where the entries end: the extensions, then the checksum, follow.
    let entriesEnd: Int
    /// The split index's link to its shared part, when this file is split.
    let link: IndexFile.Link?
    private let file: MappedFile
    private let offsets: [Int]

    /// Takes the mapped index `file` read from `path`, which ``IndexFile/header(_:path:)`` found
    /// to be of version 2 or 3 (version 4 compresses names against the previous entry:
    /// ``IndexFile/parse(_:path:)`` reads it whole instead). Throws when it is damaged.
    init(file: MappedFile, path: String) throws(GitFormatError) {
        let bytes = file.bytes
        func corrupt(_ what: String) -> GitFormatError {
            failure(.corrupt, "\(path) is not a valid index file: \(what)", "cairn_index_read")
        }
        version = try IndexFile.header(bytes, path: path)
        precondition(version == 2 || version == 3, "a mapped index is of version 2 or 3")
        let end = bytes.count - IndexFile.trailerSize
        let claimed = Int(bytes.loadBigEndianUInt32(at: 8))
        // Each entry takes at least 64 bytes: a count the file cannot hold is damage.
        guard claimed <= (end - 12) / 64 else { throw corrupt("\(claimed) entries claimed") }
        var offsets: [Int] = []
        offsets.reserveCapacity(claimed)
        var offset = 12
        for _ in 0..<claimed {
            guard let next = IndexFile.entryEnd(bytes, at: offset, version: version, end: end) else {
                throw corrupt("entry \(offsets.count) is cut short")
            }
            offsets.append(offset)
            offset = next
        }
        self.path = path
        self.file = file
        self.offsets = offsets
        count = claimed
        entriesEnd = offset
        link = try IndexFile.readExtensions(bytes, from: offset, end: end, corrupt: corrupt)
    }

    /// The file's checksum, which names it when it is a shared part.
    var checksum: ObjectID {
        ObjectID(rawBytes: Array(file.bytes[(file.bytes.count - IndexFile.trailerSize)...]))
    }

    /// The entry at a position.
    func entry(at position: Int) throws(GitFormatError) -> IndexEntry {
        // Named, not destructured (see ``IndexFile/parse(_:path:)``).
        if let read = IndexFile.readEntry(file.bytes, at: offsets[position], version: version, end: entriesEnd, previousPath: []) {
            return read.entry
        }
        throw damaged(position)
    }

    private func damaged(_ position: Int) -> GitFormatError {
        failure(.corrupt, "\(path) is not a valid index file: entry \(position) runs past its end", "cairn_index_read")
    }

    /// The positions of every entry for `path` (one per stage; none when it is not staged),
    /// found by binary search.
    func positions(of path: [UInt8]) -> Range<Int> {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if compareName(at: middle, with: path) < 0 { low = middle + 1 } else { high = middle }
        }
        var upper = low
        while upper < count, compareName(at: upper, with: path) == 0 { upper += 1 }
        return low..<upper
    }

    /// Copies the entries at `positions`, as they are in the file, to the end of `bytes`.
    func appendEntries(_ positions: Range<Int>, to bytes: inout [UInt8]) {
        guard !positions.isEmpty else { return }
        let start = offsets[positions.lowerBound]
        let stop = positions.upperBound == count ? entriesEnd : offsets[positions.upperBound]
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: file.bytes[start..<stop]))
    }

    /// Whether any entry carries extended flags (so only version 3 can hold the file's entries).
    var hasExtendedFlags: Bool {
        version == 3 && offsets.contains { file.bytes[$0 + 60] & 0x40 != 0 }
    }

    /// The name of the entry at `position` against `path`: negative when it sorts first.
    private func compareName(at position: Int, with path: [UInt8]) -> Int {
        let bytes = file.bytes
        let offset = offsets[position]
        let flags = UInt16(bytes[offset + 60]) << 8 | UInt16(bytes[offset + 61])
        let start = offset + 62 + (flags & 0x4000 != 0 ? 2 : 0)
        let length = IndexFile.nameLength(bytes, flags: flags, nameStart: start, end: entriesEnd)
        let common = min(length, path.count)
        for index in 0..<common where bytes[start + index] != path[index] {
            return bytes[start + index] < path[index] ? -1 : 1
        }
        return length == path.count ? 0 : (length < path.count ? -1 : 1)
    }
}
