import CairnCore

/// One document of a Firestore export: its path within the database (`users/u1/books/b1`)
/// and its fields.
public struct FirestoreDocument: Hashable, Sendable {
    public var path: String
    public var fields: [String: FirestoreValue]

    public init(path: String, fields: [String: FirestoreValue]) {
        self.path = path
        self.fields = fields
    }
}
