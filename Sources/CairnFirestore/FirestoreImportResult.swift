import CairnCore
import CairnMerge

/// What importing a Firestore export did.
public struct FirestoreImportResult: Sendable {
    /// The checkpoint that holds the import; nil when the store held every document as the
    /// file has it already.
    public var checkpoint: CheckpointID?
    /// The documents of this user the file holds, sorted.
    public var documents: [DocumentPath]
    /// The files the checkpoint changed (added, modified), sorted.
    public var changes: [FileChange]
    /// Documents of other users left out (with `skippingOtherUsers`).
    public var skipped: Int
    /// The database the file's documents are named in; nil for the Node tool's form.
    public var database: FirestoreDatabase?
    public var shape: FirestoreShape
    /// Typed values kept where the schema set declares no such type.
    public var notes: [FirestoreTypeNote]
}
