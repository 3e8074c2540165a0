import CairnMerge

/// Why the store refused a write, as a ``CairnError``'s cause (code `.invalidInput`): it would
/// change or delete an existing document of an append-only kind. Programs tell this refusal
/// from others by it, never by the message's text.
public struct AppendOnlyRefusal: Error, Sendable, Hashable {
    /// What the refused write would have done to the document.
    public enum Change: String, Sendable, Hashable {
        case changed, deleted
    }

    /// The existing append-only document.
    public var document: DocumentPath
    /// The schema file of its kind (`exam-attempt.schema.json`).
    public var schemaFile: String
    public var change: Change

    public init(document: DocumentPath, schemaFile: String, change: Change) {
        self.document = document
        self.schemaFile = schemaFile
        self.change = change
    }
}
