import CGit2
import GitFormat

#if canImport(Glibc)
import Glibc
#endif

extension Repository {
    /// The id of the blob at `path` in a commit's tree, or nil when there is none
    /// (`git_tree_entry_bypath`). A folder at `path` counts as none.
    public func blobID(at path: String, inCommit commitID: ObjectID) throws(GitError) -> ObjectID? {
        let tree = try withCommit(commitID) { (commit) throws(GitError) in ObjectID(git_commit_tree_id(commit).pointee) }
        guard let entry = try entry(at: path, inTree: tree), entry.isBlob else { return nil }
        return entry.id
    }

    /// The content of a blob, checked against its id: as the object database's backends give
    /// it (``readFromBackends(_:type:)``), else through `git_blob_lookup`.
    public func blobContent(_ id: ObjectID) throws(GitError) -> [UInt8] {
        if let content = try readFromBackends(id, type: .blob) { return content }
        var blob: OpaquePointer?
        var raw = id.raw
        try check(git_blob_lookup(&blob, handle, &raw), "git_blob_lookup")
        defer { git_blob_free(blob) }
        let size = Int(git_blob_rawsize(blob))
        guard size > 0, let bytes = git_blob_rawcontent(blob) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: size))
    }
}

extension Repository {
    /// The blob id a file would have, without writing it (`git_odb_hashfile`).
    public func hashFile(atPath path: String) throws(GitError) -> ObjectID {
        var id = git_oid()
        try check(git_odb_hashfile(&id, path, GIT_OBJECT_BLOB), "git_odb_hashfile")
        return ObjectID(id)
    }
}

extension Repository {
    /// Writes the tree that `baseline` becomes with `updates` applied, and returns its id.
    /// Only the folders on the updated paths get new trees, each spliced from the old one's
    /// bytes (see ``TreeSplicer``), so the cost follows the updates and the size of the
    /// folders they touch, not the size of the whole tree. Folders left empty disappear.
    public func updateTree(_ baseline: ObjectID, with updates: [TreeUpdate]) throws(GitError) -> UpdatedTree {
        var splicer = TreeSplicer(repository: self)
        let id = try splicer.apply(baseline, updates)
        return UpdatedTree(id: id, previous: splicer.previous)
    }

    /// The same as ``updateTree(_:with:)``, by libgit2's `git_tree_create_updated`: the
    /// reference the splicer is tested against.
    func updateTreeWithLibgit2(_ baseline: ObjectID, with updates: [TreeUpdate]) throws(GitError) -> ObjectID {
        var tree: OpaquePointer?
        var rawBaseline = baseline.raw
        try check(git_tree_lookup(&tree, handle, &rawBaseline), "git_tree_lookup")
        defer { git_tree_free(tree) }

        var paths: [UnsafeMutablePointer<CChar>?] = []
        defer { paths.forEach { free($0) } }
        var raw: [git_tree_update] = []
        raw.reserveCapacity(updates.count)
        for update in updates {
            var entry = git_tree_update()
            switch update {
            case .upsert(let path, let id, let mode):
                entry.action = GIT_TREE_UPDATE_UPSERT
                entry.id = id.raw
                entry.filemode = git_filemode_t(rawValue: mode)
                paths.append(strdup(path))
            case .remove(let path):
                entry.action = GIT_TREE_UPDATE_REMOVE
                paths.append(strdup(path))
            }
            entry.path = UnsafePointer(paths[paths.count - 1])
            raw.append(entry)
        }
        var id = git_oid()
        try check(git_tree_create_updated(&id, handle, tree, raw.count, raw), "git_tree_create_updated")
        return ObjectID(id)
    }
}

extension Repository {
    /// Writes `bytes` as a blob (`git_blob_create_from_buffer`). Unlike creating it from a
    /// file of the working tree, this applies no filters, so it reads no attributes and never
    /// the index (which libgit2 cannot read once Cairn has split it). Inside
    /// ``packingWrites(_:)`` the blob goes to the pending pack instead.
    public func writeBlob(_ bytes: [UInt8]) throws(GitError) -> ObjectID {
        if pendingPack != nil { return pendingPack!.add(bytes, type: .blob) }
        var id = git_oid()
        try check(
            bytes.withUnsafeBytes { git_blob_create_from_buffer(&id, handle, $0.baseAddress, $0.count) },
            "git_blob_create_from_buffer")
        return ObjectID(id)
    }

    /// Writes the empty tree and returns its id (`git_treebuilder_write` of a new builder).
    public func emptyTree() throws(GitError) -> ObjectID {
        var builder: OpaquePointer?
        try check(git_treebuilder_new(&builder, handle, nil), "git_treebuilder_new")
        defer { git_treebuilder_free(builder) }
        var id = git_oid()
        try check(git_treebuilder_write(&id, builder), "git_treebuilder_write")
        return ObjectID(id)
    }
}
