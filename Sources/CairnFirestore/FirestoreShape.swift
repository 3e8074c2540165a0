import CairnCore

/// The shapes of a Firestore export file that Cairn reads and writes.
public enum FirestoreShape: String, Sendable, Hashable, CaseIterable {
    /// Firestore's REST form: `{"documents": [{"name": "projects/P/databases/D/documents/users/u1/…",
    /// "fields": {"score": {"integerValue": "83"}, …}}, …]}` (a JSON array of such documents
    /// is read too).
    case rest
    /// The form of the Node tool `node-firestore-import-export`: collections nested under
    /// `__collections__`, values as JSON, timestamps, geopoints and references as
    /// `{"__datatype__": …, "value": …}`.
    case node
}
