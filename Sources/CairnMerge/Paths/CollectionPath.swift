/// The path of a collection: an odd number of IDs, `users/u1/books`.
public struct CollectionPath: Hashable, Sendable, CustomStringConvertible {
    public let segments: [String]

    /// Parses and checks a collection path.
    public init(_ text: String) throws(PathError) {
        let segments = try DocumentPath.split(text)
        guard segments.count % 2 == 1 else {
            throw PathError(
                rule: .notACollection, path: text,
                explanation: "it names a document (an even number of IDs); a collection path is like users/u1/books")
        }
        self.segments = segments
    }

    init(checkedSegments: [String]) {
        segments = checkedSegments
    }

    /// The collection's own ID, the last segment.
    public var id: String { segments[segments.count - 1] }

    /// The document `id` of this collection (the ID is checked).
    public func document(_ id: String) throws(PathError) -> DocumentPath {
        try DocumentID.validate(id, in: description + "/" + id)
        return DocumentPath(checkedSegments: segments + [id])
    }

    /// The collection as text, `/`-separated; also its folder, relative to the store.
    public var description: String { segments.joined(separator: "/") }
}
