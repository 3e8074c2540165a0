/// A field that counts documents below its own document, computed again after every merge
/// and every write: `{"derive": {"countDocuments": "boardTasks", "where": {"isCompleted": true}}}`
/// on a board counts its `boardTasks` that are completed; `"profiles/*/habits"` counts the
/// habits of every profile. Never merged itself: two devices that each added a document
/// count both.
public struct DocumentCount: Hashable, Sendable {
    /// The collection below the owner: collection IDs and `*` for any document between them.
    public var collection: [String]
    /// Field values a document must have to count.
    public var filter: JSONObject

    init?(annotation: JSONValue) {
        guard case .object(let fields) = annotation, case .string(let text)? = fields["countDocuments"],
            fields.keys.allSatisfy({ $0 == "countDocuments" || $0 == "where" })
        else { return nil }
        let segments = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.count % 2 == 1, !segments.contains(where: \.isEmpty),
            segments.enumerated().allSatisfy({ $0.offset % 2 == 1 ? $0.element == "*" : $0.element != "*" })
        else {
            return nil
        }
        collection = segments
        filter = fields["where"]?.objectValue ?? [:]
    }

    /// Whether `path` is a document of the counted collection of `owner`.
    public func contains(_ path: DocumentPath, below owner: DocumentPath) -> Bool {
        let rest = path.segments.dropFirst(owner.segments.count)
        guard path.segments.count == owner.segments.count + collection.count + 1,
            Array(path.segments.prefix(owner.segments.count)) == owner.segments
        else { return false }
        return zip(collection, rest).allSatisfy { pattern, id in pattern == "*" || pattern == id }
    }

    /// How many of `documents` (those of the collection) have the filter's values.
    public func count(_ documents: [JSONValue]) -> JSONValue {
        .integer(Int64(documents.filter(takes).count))
    }

    /// Whether `document`, one of the collection, counts: it has the filter's values.
    public func takes(_ document: JSONValue) -> Bool {
        filter.allSatisfy { key, value in document.field(key).map { JSONValue.same($0, value) } ?? false }
    }
}
