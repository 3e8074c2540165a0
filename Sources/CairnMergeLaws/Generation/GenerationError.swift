import CairnMerge

/// What a generator could not make: which schema, where in it, and why. A set whose
/// documents cannot be generated is reported, never filled with documents its own validator
/// would refuse.
public struct GenerationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The schema file (`book.schema.json`).
    public var file: String
    /// The JSON pointer in the schema (or, for a document that came out invalid, in the document).
    public var pointer: String
    public var reason: String

    public init(file: String, pointer: String, reason: String) {
        self.file = file
        self.pointer = pointer
        self.reason = reason
    }

    public var description: String { "\(file): \(pointer.isEmpty ? "/" : pointer): \(reason)" }
}
