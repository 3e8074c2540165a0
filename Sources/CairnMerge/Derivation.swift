/// A field computed from others of its document, never merged itself: after every merge
/// and every write it is computed again (DESIGN §3, "derived").
///
/// Annotations (`"x-merge": {"derive": …}` on a top-level property):
/// - `{"count": "sections", "where": {"completed": true}}` — how many entries of the map
///   `sections` have all the given field values;
/// - `{"latestKey": "sections", "by": "updatedAt", "where": {"completed": true}}` — the key
///   of the entry with the greatest `by` among those that match (ties: the greater key);
///   null when none does.
public enum Derivation: Hashable, Sendable {
    case count(map: String, where: [String: JSONValue])
    case latestKey(map: String, by: String, where: [String: JSONValue])

    init?(annotation: JSONValue) {
        guard case .object(let fields) = annotation else { return nil }
        let filter = fields["where"]?.objectValue ?? [:]
        if case .string(let map)? = fields["count"], fields.keys.allSatisfy({ $0 == "count" || $0 == "where" }) {
            self = .count(map: map, where: filter)
        } else if case .string(let map)? = fields["latestKey"], case .string(let by)? = fields["by"],
                  fields.keys.allSatisfy({ ["latestKey", "by", "where"].contains($0) }) {
            self = .latestKey(map: map, by: by, where: filter)
        } else {
            return nil
        }
    }

    /// The field's value for `document`.
    public func compute(_ document: JSONValue) -> JSONValue {
        func matching(_ map: String, _ filter: [String: JSONValue]) -> [(String, JSONValue)] {
            let entries = document.field(map)?.objectValue ?? [:]
            return entries.filter { _, entry in
                filter.allSatisfy { key, value in entry.field(key).map { JSONValue.same($0, value) } ?? false }
            }.map { ($0.key, $0.value) }
        }
        switch self {
        case .count(let map, let filter):
            return .integer(Int64(matching(map, filter).count))
        case .latestKey(let map, let by, let filter):
            let latest = matching(map, filter).max { first, second in
                let order = JSONValue.stampOrder(first.1.field(by), second.1.field(by))
                return order != 0 ? order < 0 : first.0.utf8.lexicographicallyPrecedes(second.0.utf8)
            }
            return latest.map { .string($0.0) } ?? .null
        }
    }
}
