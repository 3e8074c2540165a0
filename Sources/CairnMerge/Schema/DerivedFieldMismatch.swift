/// A derived field whose stored value is not the one its schema computes from the document:
/// what another writer (plain git, any git library) leaves when it changes a document without
/// computing its derived fields again.
public struct DerivedFieldMismatch: Hashable, Sendable, CustomStringConvertible {
    /// The document that holds the field.
    public var document: DocumentPath
    /// The field's name (a top-level field of the document).
    public var field: String
    /// The value the schema derives.
    public var expected: JSONValue
    /// The value the document holds; nil when it lacks the field.
    public var found: JSONValue?
    /// The schema file that derives the field (`book.schema.json`).
    public var schemaFile: String

    public init(document: DocumentPath, field: String, expected: JSONValue, found: JSONValue?, schemaFile: String) {
        self.document = document
        self.field = field
        self.expected = expected
        self.found = found
        self.schemaFile = schemaFile
    }

    /// `users/u1/books/b1: derived field completedCount is 1, expected 2 (book.schema.json)`.
    public var description: String { described(verb: "is") }

    /// The mismatch in one line, with `verb` saying when the value was found (`is`, `was`).
    public func described(verb: String) -> String {
        let held = found?.inlineText ?? "absent"
        return "\(document): derived field \(field) \(verb) \(held), expected \(expected.inlineText) (\(schemaFile))"
    }
}
