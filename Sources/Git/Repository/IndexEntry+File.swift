import GitFormat

extension IndexEntry {
    /// An entry for the file at `absolutePath`, staged at `path` with blob `id`, carrying the
    /// file's stat data (`lstat`) so git sees it unchanged.
    public static func forFile(atPath absolutePath: String, path: String, id: ObjectID) throws(GitError) -> IndexEntry {
        try converting { () throws(GitFormatError) in try IndexEntry(describingFileAt: absolutePath, path: path, id: id) }
    }
}
