import CairnMerge

/// One thing `validate` finds wrong with a stored document: the document, the JSON pointer
/// of the value, the rule it breaks and a sentence — what a script needs to point at it.
public struct DocumentFinding: Hashable, Sendable, CustomStringConvertible {
    /// The document.
    public var document: DocumentPath
    /// The JSON pointer of the offending value (empty: the whole document; `{id}` for an ID
    /// of its path).
    public var pointer: String
    /// The rule: the schema keyword that failed (`minimum`, `required`, …), `json` for a file
    /// that is not JSON, `type` for JSON that is not an object, `derive` for derived fields
    /// that do not match the documents they are computed from.
    public var keyword: String
    /// The schema file of the document's kind (`book.schema.json`); nil when no schema
    /// describes the document.
    public var schemaFile: String?
    /// Where the keyword is in the schema, as a JSON pointer; nil for the rules that are not
    /// one keyword of the schema (`json`, `type` of a document, `derive`).
    public var schemaPath: String?
    /// What is wrong, in a few words.
    public var message: String

    public init(
        document: DocumentPath, pointer: String, keyword: String, schemaFile: String?, schemaPath: String?,
        message: String
    ) {
        self.document = document
        self.pointer = pointer
        self.keyword = keyword
        self.schemaFile = schemaFile
        self.schemaPath = schemaPath
        self.message = message
    }

    /// The finding as `cairn validate` prints it after the document's path: a schema's
    /// complaint as `ValidationError` says it, any other the message.
    public var description: String {
        guard let schemaPath else { return message }
        return "\(pointer.isEmpty ? "/" : pointer): \(message) (\(keyword) at \(schemaPath.isEmpty ? "/" : schemaPath))"
    }
}
