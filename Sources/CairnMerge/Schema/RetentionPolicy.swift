/// How many documents of a collection a store keeps, as a schema declares it
/// (`"x-cairn": {"retention": {"keep": 50, "by": "completedAt"}}`): the `keep` latest by the
/// field `by` (ties by ID); older ones are removed by an explicit prune, in one checkpoint,
/// and the server's hook lets exactly those deletions through — even of append-only documents.
public struct RetentionPolicy: Hashable, Sendable, CustomStringConvertible {
    /// How many documents a collection keeps.
    public var keep: Int
    /// The field that orders them (a time stamp or a version): the greatest are kept.
    public var by: String

    public init(keep: Int, by: String) {
        self.keep = keep
        self.by = by
    }

    /// Reads the annotation; nil when it is not `{"keep": N ≥ 1, "by": "field"}`.
    public init?(annotation: JSONValue) {
        guard case .object(let fields) = annotation, fields.count == 2,
            case .integer(let keep)? = fields["keep"], keep >= 1, keep <= 1_000_000,
            case .string(let by)? = fields["by"], !by.isEmpty
        else { return nil }
        self.init(keep: Int(keep), by: by)
    }

    public var description: String { "keep the latest \(keep) by \(by)" }

    /// Of the documents of one collection, those the policy removes: all but the `keep`
    /// latest by the field, ties broken by ID (the greater is the later).
    public func expired(_ documents: [DocumentPath: JSONValue]) -> [DocumentPath] {
        let latestFirst = documents.keys.sorted { left, right in
            let order = JSONValue.stampOrder(documents[left]?.field(by), documents[right]?.field(by))
            if order != 0 { return order > 0 }
            return right.id.utf8.lexicographicallyPrecedes(left.id.utf8)
        }
        return Array(latestFirst.dropFirst(keep))
    }
}
