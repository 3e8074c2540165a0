import CGit2
import GitFormat

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
            entries.append(
                TreeEntry(
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

    /// Walks the trees' entries side by side in git's order (each tree is sorted so), as a
    /// merge of sorted lists: entries equal in every tree are passed over without being copied
    /// out of libgit2, so a folder of 60,000 documents where 40 changed costs a comparison per
    /// entry and 40 copies.
    private func collectDifferences(
        among trees: [ObjectID?], prefix: [[UInt8]],
        into found: inout [TreeDifference]
    ) throws(GitError) {
        var handles: [OpaquePointer?] = []
        defer { for handle in handles { git_tree_free(handle) } }
        for tree in trees {
            guard let tree else {
                handles.append(nil)
                continue
            }
            var handle: OpaquePointer?
            var raw = tree.raw
            try check(git_tree_lookup(&handle, self.handle, &raw), "git_tree_lookup")
            handles.append(handle)
        }
        let counts = handles.map { $0.map { git_tree_entrycount($0) } ?? 0 }
        var positions = [Int](repeating: 0, count: handles.count)
        // The groups of entries (one name, all folders or all not) that differ somewhere.
        var differing: [(name: [UInt8], isTree: Bool, entries: [TreeEntry?])] = []
        var current = [OpaquePointer?](repeating: nil, count: handles.count)
        while true {
            var smallest: OpaquePointer?
            for index in handles.indices {
                current[index] = positions[index] < counts[index] ? git_tree_entry_byindex(handles[index], positions[index]) : nil
                if let entry = current[index], smallest == nil || git_tree_entry_cmp(entry, smallest) < 0 {
                    smallest = entry
                }
            }
            guard let smallest else { break }
            var same = true
            for index in handles.indices {
                if let entry = current[index], git_tree_entry_cmp(entry, smallest) == 0 {
                    positions[index] += 1
                    if git_oid_equal(git_tree_entry_id(entry), git_tree_entry_id(smallest)) == 0
                        || git_tree_entry_filemode_raw(entry) != git_tree_entry_filemode_raw(smallest)
                    {
                        same = false
                    }
                } else {
                    current[index] = nil
                    same = false
                }
            }
            if same { continue }
            let name = Self.name(of: smallest)
            let entries = current.map { entry in
                entry.map {
                    TreeEntry(
                        nameBytes: name, id: ObjectID(git_tree_entry_id($0).pointee),
                        mode: git_tree_entry_filemode_raw($0).rawValue)
                }
            }
            differing.append((name, git_tree_entry_type(smallest) == GIT_OBJECT_TREE, entries))
        }
        // Sorted by name bytes, a file before a folder of the same name.
        differing.sort { left, right in
            left.name == right.name ? !left.isTree && right.isTree : left.name.lexicographicallyPrecedes(right.name)
        }
        for group in differing {
            let components = prefix + [group.name]
            if group.isTree {
                try collectDifferences(among: group.entries.map { $0?.id }, prefix: components, into: &found)
            } else {
                let path = components.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "/")
                found.append(TreeDifference(path: path, components: components, entries: group.entries))
            }
        }
    }

    /// The name of a tree entry, as stored.
    private static func name(of entry: OpaquePointer) -> [UInt8] {
        let name = git_tree_entry_name(entry)!
        return name.withMemoryRebound(to: UInt8.self, capacity: strlen(name)) {
            Array(UnsafeBufferPointer(start: $0, count: strlen(name)))
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
        return TreeEntry(
            nameBytes: name, id: ObjectID(git_tree_entry_id(entry).pointee),
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
