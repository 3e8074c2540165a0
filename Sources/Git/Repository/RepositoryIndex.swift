import GitFormat

/// The repository's index (`.git/index`), which Cairn reads and writes itself (GitFormat's
/// `Index`: whole or split, unchanged entries copied byte for byte), its failures as
/// ``GitError``s like every other failure of this module.
///
/// Stages and unstages in memory; ``write()`` saves it once.
public struct RepositoryIndex {
    private let index: Index

    init(_ index: Index) {
        self.index = index
    }

    /// The entry staged for `path` (stage 0), if any.
    public func entry(for path: String) throws(GitError) -> IndexEntry? {
        try converting { () throws(GitFormatError) in try index.entry(for: path) }
    }

    /// Stages `entry` for its path, replacing whatever was staged there (every stage of a
    /// conflicted path: staging resolves it).
    public func stage(_ entry: IndexEntry) throws(GitError) {
        try converting { () throws(GitFormatError) in try index.stage(entry) }
    }

    /// Unstages `path` (every stage of it).
    public func remove(path: String) throws(GitError) {
        try converting { () throws(GitFormatError) in try index.remove(path: path) }
    }

    /// Every staged entry of every stage, sorted by path then stage. Reads the whole index:
    /// for scans.
    public func allEntries() throws(GitError) -> [IndexEntry] {
        try converting { () throws(GitFormatError) in try index.allEntries() }
    }

    /// Writes the index, whole or split as the repository's `core.splitIndex` and its size
    /// decide, through `.git/index.lock` as git does.
    public func write() throws(GitError) {
        try converting { () throws(GitFormatError) in try index.write() }
    }
}
