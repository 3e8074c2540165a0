/// A tree object's raw bytes, with the boundaries of its entries, into which changes are
/// spliced: unchanged entries are copied as runs of bytes, never parsed one by one.
///
/// An entry is `<octal mode> <name>\0<20-byte id>`; entries are in git's order (by name
/// bytes, a folder's name compared as if it ended in `/`).
package struct RawTree {
    /// The tree's bytes as read.
    package let bytes: [UInt8]
    private let entries: [Entry]

    /// One entry as it lies in the bytes.
    private struct Entry {
        var start: Int
        var nameStart: Int
        var nameEnd: Int
        var end: Int
        var isFolder: Bool
    }

    /// One change to an entry of the tree: the entry named `name` (a folder or not) is
    /// replaced by `replacement` (the bytes of a whole entry), or removed when it is nil.
    package struct Splice {
        package var name: [UInt8]
        package var isFolder: Bool
        package var replacement: [UInt8]?

        package init(name: [UInt8], isFolder: Bool, replacement: [UInt8]?) {
            self.name = name
            self.isFolder = isFolder
            self.replacement = replacement
        }
    }

    /// Finds the entries of the tree `id` (nil: a tree not written yet) whose bytes are
    /// `bytes`; an entry cut short or without a name is an error.
    package init(_ bytes: [UInt8], id: ObjectID?) throws(GitFormatError) {
        var entries: [Entry] = []
        var offset = 0
        let corrupt = failure(.corrupt, "tree \(id?.hex ?? "") is corrupt", "cairn_tree_read")
        while offset < bytes.count {
            let start = offset
            var isFolder = false
            if bytes[offset] == UInt8(ascii: "4") { isFolder = true }
            while offset < bytes.count, bytes[offset] != UInt8(ascii: " ") { offset += 1 }
            let nameStart = offset + 1
            offset = nameStart
            while offset < bytes.count, bytes[offset] != 0 { offset += 1 }
            let nameEnd = offset
            offset += 21
            guard offset <= bytes.count, nameEnd > nameStart else { throw corrupt }
            entries.append(Entry(start: start, nameStart: nameStart, nameEnd: nameEnd, end: offset, isFolder: isFolder))
        }
        self.bytes = bytes
        self.entries = entries
    }

    /// The id of the folder named `name`, if the tree has one.
    package func folderID(named name: [UInt8]) -> ObjectID? {
        find(name, isFolder: true).map(id(of:))
    }

    /// The tree's bytes with `splices` applied (in any order), and the ids the files they
    /// replaced or removed had, by name. A splice that would turn a file into a folder or
    /// back is an error.
    package func splicing(_ splices: [Splice]) throws(GitFormatError) -> (bytes: [UInt8], previous: [(name: [UInt8], id: ObjectID)]) {
        let splices = splices.sorted { Self.compare($0.name, $0.isFolder, $1.name, $1.isFolder) < 0 }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + splices.count * 64)
        var previous: [(name: [UInt8], id: ObjectID)] = []
        var cursor = 0
        for splice in splices {
            if find(splice.name, isFolder: !splice.isFolder) != nil {
                throw failure(.invalidUpdate, "a tree update may not turn a file into a folder or back", "cairn_tree_update")
            }
            let position = lowerBound(splice.name, isFolder: splice.isFolder)
            if position > cursor {
                output += bytes[entries[cursor].start..<entries[position - 1].end]
            }
            cursor = max(cursor, position)
            if cursor < entries.count, name(of: entries[cursor]).elementsEqual(splice.name) {
                if !splice.isFolder { previous.append((splice.name, id(of: cursor))) }
                cursor += 1
            }
            if let replacement = splice.replacement { output += replacement }
        }
        if cursor < entries.count {
            output += bytes[entries[cursor].start..<bytes.count]
        }
        return (output, previous)
    }

    /// The bytes of one entry.
    package static func entry(name: [UInt8], mode: UInt32, id: ObjectID) -> [UInt8] {
        Array(String(mode, radix: 8).utf8) + [UInt8(ascii: " ")] + name + [0] + id.bytes
    }

    // MARK: - Internals

    private func name(of entry: Entry) -> ArraySlice<UInt8> {
        bytes[entry.nameStart..<entry.nameEnd]
    }

    private func id(of position: Int) -> ObjectID {
        ObjectID(rawBytes: Array(bytes[(entries[position].end - 20)..<entries[position].end]))
    }

    /// The first entry not ordered before (`name`, `isFolder`).
    private func lowerBound(_ name: [UInt8], isFolder: Bool) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            let entry = entries[middle]
            if Self.compare(bytes[entry.nameStart..<entry.nameEnd], entry.isFolder, name, isFolder) < 0 {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// The position of the entry named `name` of the given kind, if any.
    private func find(_ name: [UInt8], isFolder: Bool) -> Int? {
        let position = lowerBound(name, isFolder: isFolder)
        guard position < entries.count, entries[position].isFolder == isFolder,
            bytes[entries[position].nameStart..<entries[position].nameEnd].elementsEqual(name)
        else { return nil }
        return position
    }

    /// git's order of tree entries: by name bytes, a folder's name compared as if it ended in `/`.
    private static func compare<A: Collection<UInt8>, B: Collection<UInt8>>(
        _ first: A, _ firstIsFolder: Bool, _ second: B, _ secondIsFolder: Bool
    ) -> Int {
        var left = first.makeIterator()
        var right = second.makeIterator()
        while true {
            let a = left.next()
            let b = right.next()
            switch (a, b) {
            case (let x?, let y?):
                if x != y { return Int(x) - Int(y) }
            case (nil, let y?):
                return Int(firstIsFolder ? UInt8(ascii: "/") : 0) - Int(y)
            case (let x?, nil):
                return Int(x) - Int(secondIsFolder ? UInt8(ascii: "/") : 0)
            case (nil, nil):
                return Int(firstIsFolder ? UInt8(ascii: "/") : 0) - Int(secondIsFolder ? UInt8(ascii: "/") : 0)
            }
        }
    }
}
