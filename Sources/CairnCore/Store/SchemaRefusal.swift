import CairnMerge

/// Why the store refused a document, as a ``CairnError``'s cause (code `.invalidInput`): it
/// breaks the schema of its kind. The errors' pointers are places in the document as it
/// would have been stored (its derived fields computed).
public struct SchemaRefusal: Error, Sendable, Hashable {
    /// The refused document.
    public var document: DocumentPath
    /// The schema file of its kind (`book.schema.json`).
    public var schemaFile: String
    /// What the schema says is wrong, the first first; never empty.
    public var errors: [ValidationError]

    public init(document: DocumentPath, schemaFile: String, errors: [ValidationError]) {
        self.document = document
        self.schemaFile = schemaFile
        self.errors = errors
    }
}
