import CGit2

#if canImport(Glibc)
import Glibc
#endif

/// Builds the trees a set of updates makes of a baseline, folder by folder, by splicing the
/// raw bytes of each changed folder's tree: unchanged entries are copied as they are, never
/// parsed one by one, and new trees are written as loose objects whose zlib stream stores the
/// bytes without compressing them.
///
/// A collection of 60,000 documents is one tree of 3 MB; changing one document rewrites it.
/// libgit2's tree builder parses every entry, sorts them again and deflates the result;
/// splicing copies two runs of bytes. The objects are ordinary loose objects that git and
/// libgit2 read as any other (a zlib stream may use stored blocks); packing compresses them.
struct TreeSplicer {
    let repository: Repository
    /// The ids the updated files had before, by path (none for a file that is new).
    private(set) var previous: [String: ObjectID] = [:]

    /// The changes below one folder: file entries by name, and subfolders.
    private final class Folder {
        var files: [[UInt8]: Change] = [:]
        var folders: [[UInt8]: Folder] = [:]
    }

    private enum Change {
        case upsert(ObjectID, UInt32)
        case remove
    }

    /// One entry of a tree as it lies in the raw bytes.
    private struct Entry {
        var start: Int
        var nameStart: Int
        var nameEnd: Int
        var end: Int
        var isFolder: Bool
    }

    mutating func apply(_ baseline: ObjectID, _ updates: [TreeUpdate]) throws(GitError) -> ObjectID {
        let root = Folder()
        for update in updates {
            let path: String
            let change: Change
            switch update {
            case .upsert(let updatePath, let id, let mode):
                path = updatePath
                change = .upsert(id, mode)
            case .remove(let updatePath):
                path = updatePath
                change = .remove
            }
            var components = path.split(separator: "/", omittingEmptySubsequences: false).map { Array($0.utf8) }
            guard let name = components.popLast(), !name.isEmpty, !components.contains(where: \.isEmpty) else {
                throw failure(.invalidSpec, "invalid path \(path) in a tree update", "cairn_tree_update")
            }
            var folder = root
            for component in components {
                guard folder.files[component] == nil else {
                    throw failure(.invalidSpec, "duplicate entries given for \(path)", "cairn_tree_update")
                }
                if let next = folder.folders[component] {
                    folder = next
                } else {
                    let next = Folder()
                    folder.folders[component] = next
                    folder = next
                }
            }
            guard folder.files.updateValue(change, forKey: name) == nil, folder.folders[name] == nil else {
                throw failure(.invalidSpec, "duplicate entries given for \(path)", "cairn_tree_update")
            }
        }
        if let tree = try write(root, over: baseline, at: []) { return tree }
        return try repository.emptyTree()
    }

    /// Writes the tree that `folder`'s changes make of `treeID` (nil: no tree yet); nil when
    /// the result is empty, so the parent drops it.
    private mutating func write(_ folder: Folder, over treeID: ObjectID?, at location: [UInt8]) throws(GitError) -> ObjectID? {
        let raw = try treeID.map { (id) throws(GitError) in try repository.rawObject(id, type: GIT_OBJECT_TREE) } ?? []
        let entries = try Self.entries(of: raw, id: treeID)

        // The changes of this folder in git's tree order, with what each puts in its place.
        var changes: [(name: [UInt8], isFolder: Bool, replacement: [UInt8]?)] = []
        for (name, change) in folder.files {
            switch change {
            case .upsert(let id, let mode):
                changes.append((name, false, Self.serialize(name: name, mode: mode, id: id)))
            case .remove:
                changes.append((name, false, nil))
            }
        }
        for (name, subfolder) in folder.folders {
            let existing = Self.find(name, isFolder: true, in: entries, raw: raw)
            let subtreeID = existing.map { ObjectID(rawBytes: Array(raw[(entries[$0].end - 20)..<entries[$0].end])) }
            let written = try write(subfolder, over: subtreeID, at: location + name + [UInt8(ascii: "/")])
            changes.append((name, true, written.map { Self.serialize(name: name, mode: 0o040000, id: $0) }))
        }
        changes.sort { Self.compare($0.name, $0.isFolder, $1.name, $1.isFolder) < 0 }

        var output: [UInt8] = []
        output.reserveCapacity(raw.count + changes.count * 64)
        var cursor = 0
        for change in changes {
            if Self.find(change.name, isFolder: !change.isFolder, in: entries, raw: raw) != nil {
                throw failure(.invalidSpec, "a tree update may not turn a file into a folder or back", "cairn_tree_update")
            }
            let position = Self.lowerBound(change.name, isFolder: change.isFolder, in: entries, raw: raw)
            if position > cursor {
                output += raw[entries[cursor].start..<entries[position - 1].end]
            }
            cursor = max(cursor, position)
            if cursor < entries.count, Self.name(of: entries[cursor], in: raw).elementsEqual(change.name) {
                if !change.isFolder {
                    let old = ObjectID(rawBytes: Array(raw[(entries[cursor].end - 20)..<entries[cursor].end]))
                    previous[String(decoding: location + change.name, as: UTF8.self)] = old
                }
                cursor += 1
            }
            if let replacement = change.replacement { output += replacement }
        }
        if cursor < entries.count {
            output += raw[entries[cursor].start..<raw.count]
        }
        if output.isEmpty { return nil }
        if output == raw, let treeID { return treeID }
        return try repository.writeLooseObject(output, type: GIT_OBJECT_TREE)
    }

    /// The boundaries of every entry of a raw tree: `<octal mode> <name>\0<20-byte id>`.
    private static func entries(of raw: [UInt8], id: ObjectID?) throws(GitError) -> [Entry] {
        var entries: [Entry] = []
        var offset = 0
        let corrupt = failure(.generic, "tree \(id?.hex ?? "") is corrupt", "cairn_tree_read")
        while offset < raw.count {
            let start = offset
            var isFolder = false
            if raw[offset] == UInt8(ascii: "4") { isFolder = true }
            while offset < raw.count, raw[offset] != UInt8(ascii: " ") { offset += 1 }
            let nameStart = offset + 1
            offset = nameStart
            while offset < raw.count, raw[offset] != 0 { offset += 1 }
            let nameEnd = offset
            offset += 21
            guard offset <= raw.count, nameEnd > nameStart else { throw corrupt }
            entries.append(Entry(start: start, nameStart: nameStart, nameEnd: nameEnd, end: offset, isFolder: isFolder))
        }
        return entries
    }

    private static func name(of entry: Entry, in raw: [UInt8]) -> ArraySlice<UInt8> {
        raw[entry.nameStart..<entry.nameEnd]
    }

    /// The first entry not ordered before (`name`, `isFolder`).
    private static func lowerBound(_ name: [UInt8], isFolder: Bool, in entries: [Entry], raw: [UInt8]) -> Int {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            let entry = entries[middle]
            if compare(raw[entry.nameStart..<entry.nameEnd], entry.isFolder, name, isFolder) < 0 {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// The position of the entry named `name` of the given kind, if any.
    private static func find(_ name: [UInt8], isFolder: Bool, in entries: [Entry], raw: [UInt8]) -> Int? {
        let position = lowerBound(name, isFolder: isFolder, in: entries, raw: raw)
        guard position < entries.count, entries[position].isFolder == isFolder,
              raw[entries[position].nameStart..<entries[position].nameEnd].elementsEqual(name) else { return nil }
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

    private static func serialize(name: [UInt8], mode: UInt32, id: ObjectID) -> [UInt8] {
        Array(String(mode, radix: 8).utf8) + [UInt8(ascii: " ")] + name + [0] + id.bytes
    }
}
