import CGit2

#if canImport(Glibc)
import Glibc
#endif

extension Repository {
    /// The entries of a tree, in git's order (`git_tree_lookup`, `git_tree_entry_byindex`).
    public func treeEntries(_ treeID: ObjectID) throws(GitError) -> [TreeEntry] {
        var tree: OpaquePointer?
        var raw = treeID.raw
        try check(git_tree_lookup(&tree, handle, &raw), "git_tree_lookup")
        defer { git_tree_free(tree) }
        let count = git_tree_entrycount(tree)
        var entries: [TreeEntry] = []
        entries.reserveCapacity(count)
        for position in 0..<count {
            guard let entry = git_tree_entry_byindex(tree, position) else { continue }
            let name = git_tree_entry_name(entry)!
            let length = strlen(name)
            let bytes = name.withMemoryRebound(to: UInt8.self, capacity: length) {
                Array(UnsafeBufferPointer(start: $0, count: length))
            }
            entries.append(TreeEntry(
                nameBytes: bytes, id: ObjectID(git_tree_entry_id(entry).pointee),
                mode: git_tree_entry_filemode_raw(entry).rawValue))
        }
        return entries
    }

    /// The paths whose entries differ among `trees` (nil: an absent tree), each with its entry
    /// in every tree. Folders equal in all trees are skipped without being read, so the cost
    /// follows what differs, not the size of the trees. Sorted by path components.
    public func differences(among trees: [ObjectID?]) throws(GitError) -> [TreeDifference] {
        var found: [TreeDifference] = []
        try collectDifferences(among: trees, prefix: [], into: &found)
        return found
    }

    private func collectDifferences(among trees: [ObjectID?], prefix: [[UInt8]],
                                    into found: inout [TreeDifference]) throws(GitError) {
        var byName: [[UInt8]: [TreeEntry?]] = [:]
        for (position, tree) in trees.enumerated() {
            guard let tree else { continue }
            for entry in try treeEntries(tree) {
                byName[entry.nameBytes, default: Array(repeating: nil, count: trees.count)][position] = entry
            }
        }
        for name in byName.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            let entries = byName[name]!
            if let first = entries[0], entries.allSatisfy({ $0 == first }) { continue }
            let components = prefix + [name]
            let files = entries.map { $0?.isTree == false ? $0 : nil }
            if files.contains(where: { $0 != nil }), !files.allSatisfy({ $0 == files[0] }) {
                let path = components.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
                found.append(TreeDifference(path: path, components: components, entries: files))
            }
            let folders = entries.map { $0?.isTree == true ? $0?.id : nil }
            if folders.contains(where: { $0 != nil }), !folders.allSatisfy({ $0 == folders[0] }) {
                try collectDifferences(among: folders, prefix: components, into: &found)
            }
        }
    }
}

extension Repository {
    /// The entry at `path` in a tree (a file or a folder), or nil when there is none
    /// (`git_tree_entry_bypath`).
    public func entry(at path: String, inTree treeID: ObjectID) throws(GitError) -> TreeEntry? {
        var tree: OpaquePointer?
        var raw = treeID.raw
        try check(git_tree_lookup(&tree, handle, &raw), "git_tree_lookup")
        defer { git_tree_free(tree) }
        var entry: OpaquePointer?
        let result = git_tree_entry_bypath(&entry, tree, path)
        if result == GIT_ENOTFOUND.rawValue { return nil }
        try check(result, "git_tree_entry_bypath")
        defer { git_tree_entry_free(entry) }
        let name = path.split(separator: "/").last.map { Array($0.utf8) } ?? []
        return TreeEntry(nameBytes: name, id: ObjectID(git_tree_entry_id(entry).pointee),
                         mode: git_tree_entry_filemode_raw(entry).rawValue)
    }

    /// Every file under a folder of a tree, with its path from the top of the tree; [] when
    /// the folder does not exist.
    public func files(under folder: String, inTree treeID: ObjectID) throws(GitError) -> [TreeDifference] {
        guard let entry = try entry(at: folder, inTree: treeID), entry.isTree else { return [] }
        let prefix = folder.split(separator: "/").map { Array($0.utf8) }
        return try differences(among: [entry.id, nil]).map { difference in
            let components = prefix + difference.components
            let path = components.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
            return TreeDifference(path: path, components: components, entries: [difference.entries[0]])
        }
    }
}
