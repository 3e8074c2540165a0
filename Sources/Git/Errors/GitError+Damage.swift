import CGit2

extension GitError {
    /// The libgit2 functions that read an object by its id. Cairn passes them ids it read
    /// from the repository itself (a branch, a commit's tree or parents, a tree's entries),
    /// so when one fails — the object is missing, or its bytes do not inflate or parse — the
    /// repository's files are damaged.
    static let objectReads: Set<String> = [
        "git_odb_read", "git_odb_read_header", "git_tree_lookup", "git_blob_lookup",
        "git_commit_lookup", "git_object_lookup", "git_revwalk_next", "git_tree_entry_to_object",
    ]

    /// Whether the failure means the repository's files are damaged (a flipped byte, a
    /// truncated pack or object, a missing object), rather than a mistake in what was asked
    /// or a passing condition. Such a failure never comes with content: every object is
    /// inflated (zlib's checksum covers its bytes) and hashed against its id (by libgit2, or
    /// by ``Repository/readFromBackends(_:type:)`` for documents and trees: `GIT_EMISMATCH`,
    /// of the object database, either way).
    public var isDamage: Bool {
        if code == .locked || code == .auth || code == .certificate || isNetworkFailure { return false }
        switch category {
        case Int32(GIT_ERROR_ZLIB.rawValue):
            return true
        case Int32(GIT_ERROR_ODB.rawValue), Int32(GIT_ERROR_OBJECT.rawValue):
            return code != .ambiguous && code != .invalidSpec
        default:
            return Self.objectReads.contains(function) && code != .ambiguous && code != .invalidSpec
        }
    }
}
