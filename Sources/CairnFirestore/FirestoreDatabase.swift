import CairnCore

/// A Firestore database: the project and the database ID that document names begin with
/// (`projects/P/databases/(default)/documents/…`).
public struct FirestoreDatabase: Hashable, Sendable, CustomStringConvertible {
    public var project: String
    public var database: String

    /// The ID of a project's first database.
    public static let defaultDatabase = "(default)"

    /// A database; nil when either ID is empty or holds a `/` or white space.
    public init?(project: String, database: String = FirestoreDatabase.defaultDatabase) {
        func isID(_ text: String) -> Bool {
            !text.isEmpty && !text.unicodeScalars.contains { $0 == "/" || $0.properties.isWhitespace || $0.value < 0x20 }
        }
        guard isID(project), isID(database) else { return nil }
        self.project = project
        self.database = database
    }

    /// `projects/P/databases/D`.
    public var description: String { "projects/\(project)/databases/\(database)" }

    /// The full name of the document at `path` in this database.
    func name(of path: String) -> String {
        description + "/documents/" + path
    }

    /// The database and the document path of a full document name; nil when `name` is not
    /// `projects/P/databases/D/documents/PATH`, PATH an even number of non-empty segments.
    static func parse(name: String) -> (database: FirestoreDatabase, path: String)? {
        let parts = name.split(separator: "/", maxSplits: 5, omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "projects", parts[2] == "databases", parts[4] == "documents",
            let database = FirestoreDatabase(project: String(parts[1]), database: String(parts[3]))
        else { return nil }
        let path = String(parts[5])
        guard isDocumentPath(path) else { return nil }
        return (database, path)
    }

    /// Whether `text` names a document as Firestore does: collection and document IDs in
    /// turn, none empty.
    static func isDocumentPath(_ text: String) -> Bool {
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
        return segments.count >= 2 && segments.count % 2 == 0 && !segments.contains { $0.isEmpty }
    }
}
