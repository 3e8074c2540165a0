import CairnMerge
import Git
import GitFormat

/// A store's git repository as the source of a ``TreeMerge``: trees and blobs are git
/// objects, differences come from walking the three trees side by side (folders with one id
/// on every side are never opened), and what the merge writes gathers in the pack of the
/// enclosing `Repository.packingWrites`, written out whenever the merge reads a tree it made.
struct RepositoryMergeSource: MergeSource {
    let repository: Repository
    /// What the store's document blobs hold: plain or sealed JSON.
    let codec: DocumentCodec
    /// The handle of the second thread that reads documents, for the whole merge.
    let secondHandle: SecondHandle

    init(repository: Repository, codec: DocumentCodec) {
        self.repository = repository
        self.codec = codec
        secondHandle = SecondHandle(beside: repository)
    }

    typealias Tree = ObjectID
    typealias BlobID = ObjectID
    typealias Failure = any Error

    func differences(base: ObjectID, ours: ObjectID, theirs: ObjectID) throws -> [MergeDifference<ObjectID>] {
        func present(_ tree: ObjectID) -> ObjectID? { tree == ObjectID.emptyTree ? nil : tree }
        return try repository.differences(among: [present(base), present(ours), present(theirs)]).map { difference in
            MergeDifference(
                path: difference.path, base: Self.entry(difference.entries[0]),
                ours: Self.entry(difference.entries[1]), theirs: Self.entry(difference.entries[2]))
        }
    }

    func bytes(of blob: ObjectID) throws -> [UInt8] {
        try repository.blobContent(blob)
    }

    func document(in blob: ObjectID, at path: DocumentPath) throws -> JSONValue {
        let bytes = try codec.json(repository.blobContent(blob), at: path.fileName)
        do {
            return try JSONParser().parse(bytes)
        } catch {
            throw CairnError(
                .corrupt,
                "\(path) in history is not a valid document (\(error.description)); the store or the remote holds data Cairn did not write",
                cause: error)
        }
    }

    func entry(at path: String, in tree: ObjectID) throws -> MergeEntry<ObjectID>? {
        Self.entry(try repository.entry(at: path, inTree: tree))
    }

    func files(under folder: String, in tree: ObjectID) throws -> [(path: String, entry: MergeEntry<ObjectID>)] {
        try repository.files(under: folder, inTree: tree).compactMap { file in
            Self.entry(file.entries[0]).map { (path: file.path, entry: $0) }
        }
    }

    func write(_ document: JSONValue, at path: DocumentPath) throws -> ObjectID {
        try repository.writeBlob(codec.stored(document.canonicalBytes(), at: path.fileName))
    }

    func write(bytes: [UInt8]) throws -> ObjectID {
        try repository.writeBlob(bytes)
    }

    /// The new tree; the objects waiting for the pack are written first, as what follows
    /// reads the tree.
    func applying(_ updates: [MergeUpdate<ObjectID>], to tree: ObjectID) throws -> ObjectID {
        let updated = try repository.updateTree(
            tree,
            with: updates.map { update in
                switch update {
                case .upsert(let path, let entry): TreeUpdate.upsert(path: path, id: entry.blob, mode: entry.mode)
                case .remove(let path): TreeUpdate.remove(path: path)
                }
            }
        ).id
        try repository.writePendingObjects()
        return updated
    }

    private static func entry(_ entry: TreeEntry?) -> MergeEntry<ObjectID>? {
        entry.map { MergeEntry(blob: $0.id, mode: $0.mode) }
    }
}
