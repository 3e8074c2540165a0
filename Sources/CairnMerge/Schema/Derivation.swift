/// A field computed from others of its document, never merged itself: after every merge
/// and every write it is computed again (the Design article, *Policies*, "derived").
///
/// Annotations (`"x-merge": {"derive": …}` on a top-level property):
/// - `{"count": "sections", "where": {"completed": true}}` — how many entries of the map
///   `sections` have all the given field values;
/// - `{"latestKey": "sections", "by": "updatedAt", "where": {"completed": true}}` — the key
///   of the entry with the greatest `by` among those that match (ties: the greater key);
///   null when none does;
/// - `{"ratio": ["completedTasks", "totalTasks"], "scale": 100}` — one field divided by
///   another, times `scale` (default 1); 0 when the divisor is 0.
///
/// (Counts of other documents are ``DocumentCount``s.)
public enum Derivation: Hashable, Sendable {
    case count(map: String, where: JSONObject)
    case latestKey(map: String, by: String, where: JSONObject)
    case ratio(numerator: String, denominator: String, scale: Double)

    init?(annotation: JSONValue) {
        guard case .object(let fields) = annotation else { return nil }
        let filter = fields["where"]?.objectValue ?? [:]
        if case .string(let map)? = fields["count"], fields.keys.allSatisfy({ $0 == "count" || $0 == "where" }) {
            self = .count(map: map, where: filter)
        } else if case .string(let map)? = fields["latestKey"], case .string(let by)? = fields["by"],
            fields.keys.allSatisfy({ ["latestKey", "by", "where"].contains($0) })
        {
            self = .latestKey(map: map, by: by, where: filter)
        } else if case .array(let names)? = fields["ratio"], names.count == 2,
            case .string(let numerator) = names[0], case .string(let denominator) = names[1],
            fields.keys.allSatisfy({ $0 == "ratio" || $0 == "scale" })
        {
            let scale = fields["scale"].map { $0.number } ?? 1
            guard let scale else { return nil }
            self = .ratio(numerator: numerator, denominator: denominator, scale: scale)
        } else {
            return nil
        }
    }

    /// The field's value for `document`.
    public func compute(_ document: JSONValue) -> JSONValue {
        /// Calls `body` with each entry of the map `map` whose fields hold `filter`'s values.
        func forEachMatching(_ map: String, _ filter: JSONObject, _ body: (String, JSONValue) -> Void) {
            guard let entries = document.field(map)?.objectValue else { return }
            for (key, entry) in entries
            where filter.allSatisfy({ name, value in entry.field(name).map { JSONValue.same($0, value) } ?? false }) {
                body(key, entry)
            }
        }
        switch self {
        case .count(let map, let filter):
            var count: Int64 = 0
            forEachMatching(map, filter) { _, _ in count += 1 }
            return .integer(count)
        case .latestKey(let map, let by, let filter):
            // The greatest by stamp, ties going to the key that sorts last as bytes.
            var latest: (key: String, entry: JSONValue)?
            forEachMatching(map, filter) { key, entry in
                guard let best = latest else {
                    latest = (key, entry)
                    return
                }
                let order = JSONValue.stampOrder(best.entry.field(by), entry.field(by))
                if order != 0 ? order < 0 : best.key.utf8.lexicographicallyPrecedes(key.utf8) { latest = (key, entry) }
            }
            return latest.map { .string($0.key) } ?? .null
        case .ratio(let numerator, let denominator, let scale):
            guard let top = document.field(numerator)?.number, let bottom = document.field(denominator)?.number,
                bottom != 0
            else { return .double(0) }
            return .double(top / bottom * scale)
        }
    }
}
