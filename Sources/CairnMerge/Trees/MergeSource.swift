/// The trees a ``TreeMerge`` reads and writes: a store's trees in its git repository
/// (CairnCore's `RepositoryMergeSource`), or documents in memory
/// (``SchemaSet/mergeDocuments(base:ours:theirs:context:)``).
///
/// A tree holds files at `/`-separated paths (`users/u1/books/b1.json`, `.cairn/store.json`),
/// each an entry: a blob and a mode. Equal blobs are equal bytes, as git's ids are. The merge
/// asks for what differs among its three trees, and then only for the few paths and folders
/// it needs, so a source that passes over what is equal (git: folders with one tree id on
/// every side) makes the merge cost what changed, not what the store holds.
package protocol MergeSource {
    associatedtype Tree
    /// What names a blob: equal when the bytes are.
    associatedtype BlobID: Hashable
    /// What reading or writing fails with (`Never` for documents in memory).
    associatedtype Failure: Error

    /// The files whose entries differ among the three trees, each with its entry in each.
    func differences(base: Tree, ours: Tree, theirs: Tree) throws(Failure) -> [MergeDifference<BlobID>]

    /// The bytes a blob holds (files of the store itself, compared by content).
    func bytes(of blob: BlobID) throws(Failure) -> [UInt8]

    /// The document a blob holds, parsed; the source's error when it holds no document
    /// (a store's damage: never passed over).
    func document(in blob: BlobID, at path: DocumentPath) throws(Failure) -> JSONValue

    /// Each document's versions (a blob for base, ours and theirs; nil where a side has
    /// none), read and handed to `merge`; its results in the order asked. A source may read
    /// and merge on more than one thread: `merge` depends on its arguments only. It fails as
    /// reading the versions one by one with ``document(in:at:)`` fails: with the first blob,
    /// in that order, that holds no document.
    func merging<Merged: Sendable>(
        _ documents: [(path: DocumentPath, versions: [BlobID?])],
        _ merge: @escaping @Sendable (DocumentPath, [JSONValue?]) -> Merged
    ) throws(Failure) -> [Merged]

    /// The entry at `path` in `tree` (a file, or a folder), or nil when there is none.
    func entry(at path: String, in tree: Tree) throws(Failure) -> MergeEntry<BlobID>?

    /// Every file under `folder` in `tree`, with its path from the top; [] when there is no
    /// such folder.
    func files(under folder: String, in tree: Tree) throws(Failure) -> [(path: String, entry: MergeEntry<BlobID>)]

    /// Stores a document (its canonical bytes, or what the store keeps for them at `path`:
    /// sealed, in an encrypted store) as a blob.
    func write(_ document: JSONValue, at path: DocumentPath) throws(Failure) -> BlobID

    /// Stores a document given with its canonical bytes (see ``write(_:at:)``), which the
    /// caller made already. When ``writesFromBytesAlone`` is set, `document` is `nil`.
    func write(_ document: JSONValue?, canonicalBytes: [UInt8], at path: DocumentPath) throws(Failure) -> BlobID

    /// Whether ``write(_:canonicalBytes:at:)`` needs only the bytes: then a merge keeps only
    /// the bytes of the documents it merged until it writes them, not the documents too.
    var writesFromBytesAlone: Bool { get }

    /// Stores bytes as they are (an asset's Git LFS pointer) as a blob.
    func write(bytes: [UInt8]) throws(Failure) -> BlobID

    /// `tree` with `updates` applied (folders made and removed as needed). What the merge
    /// wrote before can be read from the new tree at once.
    func applying(_ updates: [MergeUpdate<BlobID>], to tree: Tree) throws(Failure) -> Tree
}

extension MergeSource {
    /// One by one, on the caller's thread.
    package func merging<Merged: Sendable>(
        _ documents: [(path: DocumentPath, versions: [BlobID?])],
        _ merge: @escaping @Sendable (DocumentPath, [JSONValue?]) -> Merged
    ) throws(Failure) -> [Merged] {
        var merged: [Merged] = []
        merged.reserveCapacity(documents.count)
        for (path, versions) in documents {
            var values: [JSONValue?] = []
            for version in versions { values.append(try version.map { blob throws(Failure) in try document(in: blob, at: path) }) }
            merged.append(merge(path, values))
        }
        return merged
    }

    /// As ``write(_:at:)``: the bytes are made again from the document (which a source that
    /// needs it is always given).
    package func write(_ document: JSONValue?, canonicalBytes: [UInt8], at path: DocumentPath) throws(Failure) -> BlobID {
        guard let document else { preconditionFailure("a source that writes documents was given bytes alone") }
        return try write(document, at: path)
    }

    /// The document is needed.
    package var writesFromBytesAlone: Bool { false }
}
