import CGit2

/// The repository's index (`.git/index`), the staging area between the working tree and
/// the next commit. Owns its `git_index` handle and frees it once.
public final class Index {
    let handle: OpaquePointer
    // The repository must outlive its index.
    private let repository: Repository

    init(handle: OpaquePointer, repository: Repository) {
        self.handle = handle
        self.repository = repository
    }

    deinit {
        git_index_free(handle)
    }

    /// How many entries the index holds (`git_index_entrycount`).
    public var count: Int { git_index_entrycount(handle) }

    /// Stages the working-tree file at `path` (relative to the working tree): writes its
    /// blob and records it with its file stat (`git_index_add_bypath`).
    public func add(path: String) throws(GitError) {
        try check(git_index_add_bypath(handle, path), "git_index_add_bypath")
    }

    /// Removes the entry at `path`, if any (`git_index_remove_bypath`).
    public func remove(path: String) throws(GitError) {
        try check(git_index_remove_bypath(handle, path), "git_index_remove_bypath")
    }

    /// The blob id staged at `path`, or nil (`git_index_get_bypath`, stage 0).
    public func entryID(path: String) -> ObjectID? {
        guard let entry = git_index_get_bypath(handle, path, 0) else { return nil }
        return ObjectID(entry.pointee.id)
    }

    /// The file mode staged at `path` (`0o100644`, `0o100755`…), or nil.
    public func entryMode(path: String) -> UInt32? {
        git_index_get_bypath(handle, path, 0)?.pointee.mode
    }

    /// Writes the trees of the index and returns the root's id (`git_index_write_tree`).
    /// Folders the index's tree cache still knows are not rebuilt, but libgit2 then reads
    /// every tree of the result back to refresh the cache: the cost follows the number of
    /// folders in the repository. For a few changes use ``Repository/updateTree(_:with:)``.
    public func writeTree() throws(GitError) -> ObjectID {
        var id = git_oid()
        try check(git_index_write_tree(&id, handle), "git_index_write_tree")
        return ObjectID(id)
    }

    /// Writes the index back to disk atomically (`git_index_write`).
    public func write() throws(GitError) {
        try check(git_index_write(handle), "git_index_write")
    }
}

extension Repository {
    /// Opens the repository's index (`git_repository_index`).
    public func index() throws(GitError) -> Index {
        var index: OpaquePointer?
        try check(git_repository_index(&index, handle), "git_repository_index")
        return Index(handle: index!, repository: self)
    }
}
