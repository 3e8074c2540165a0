import CairnCore

/// What exporting a store to Firestore's form made: the file's bytes and what it holds.
public struct FirestoreExport: Sendable {
    /// The export file, canonical JSON.
    public var bytes: [UInt8]
    /// How many documents it holds.
    public var documents: Int
    /// The database its documents are named in; nil for the Node tool's form.
    public var database: FirestoreDatabase?
}
