extension SchemaSetCheck {
    /// Derived fields (`"x-merge": {"derive": …}` on top-level properties) read what the set
    /// declares: the map they count and its entries' fields, the fields of a ratio, the
    /// documents a count of documents counts.
    static func derivedFindings(file: String, schema: JSONValue, schemas: [(file: String, json: JSONValue)]) -> [SchemaSetFinding] {
        var findings: [SchemaSetFinding] = []
        let properties = schema.field("properties")?.objectValue ?? [:]
        for (key, property) in properties.sorted(by: { $0.key < $1.key }) {
            guard let annotation = property.field("x-merge")?.field("derive") else { continue }
            let pointer = "/properties/" + token(key) + "/x-merge/derive"
            func add(_ message: String, _ rule: SchemaSetFinding.Rule = .deriveSource) {
                findings.append(SchemaSetFinding(file: file, pointer: pointer, rule: rule, message: "\(key) " + message))
            }
            func entries(of map: String) -> JSONValue? {
                guard let declared = properties[map] else {
                    let hint = suggestion(for: map, among: properties.keys.sorted(), otherwise: "")
                    add("reads the map \"\(map)\", which the schema does not declare" + (hint.isEmpty ? "" : "; " + hint))
                    return nil
                }
                guard let entries = entrySchema(of: declared) else {
                    add(
                        "reads the map \"\(map)\", which declares no schema for its entries (additionalProperties, or a single patternProperties)"
                    )
                    return nil
                }
                return entries.schema
            }
            func filter(_ fields: JSONObject, in entry: JSONValue, of what: String) {
                for name in fields.keys.sorted() where entry.field("properties")?.field(name) == nil {
                    add("filters on \"\(name)\", which \(what) do not declare")
                }
            }
            if let derivation = Derivation(annotation: annotation) {
                switch derivation {
                case .count(let map, let fields):
                    if let entry = entries(of: map) { filter(fields, in: entry, of: "the entries of \(map)") }
                case .latestKey(let map, let by, let fields):
                    if let entry = entries(of: map) {
                        filter(fields, in: entry, of: "the entries of \(map)")
                        if let stamp = entry.field("properties")?.field(by) {
                            if !isStamp(stamp) {
                                add(
                                    "orders the entries of \(map) by \"\(by)\", which is \(typeDescription(stamp)); a stamp is an integer, a number or a string with \"format\": \"date-time\"",
                                    .stampField)
                            }
                        } else {
                            add("orders the entries of \(map) by \"\(by)\", which they do not declare")
                        }
                    }
                case .ratio(let numerator, let denominator, _):
                    for name in [numerator, denominator] {
                        guard let field = properties[name] else {
                            add("divides \"\(name)\", which the schema does not declare")
                            continue
                        }
                        if let types = types(of: field)?.subtracting(["null"]), !types.isEmpty, !types.isSubset(of: ["integer", "number"]) {
                            add("divides \"\(name)\", which is \(typeDescription(field)), not a number")
                        }
                    }
                }
            } else if let count = DocumentCount(annotation: annotation), let owner = pattern(of: schema) {
                let counted =
                    owner.description + "/"
                    + count.collection.enumerated().map { $0.element == "*" ? "{_\($0.offset)}" : $0.element }.joined(separator: "/")
                    + "/{_}"
                let kind = PathPattern(counted).flatMap { target in
                    schemas.first { other in pattern(of: other.json).flatMap { overlap($0, target) } != nil }
                }
                guard let kind else {
                    add(
                        "counts the documents of \(count.collection.joined(separator: "/")) below \(owner), which no kind of document of the set describes"
                    )
                    continue
                }
                filter(count.filter, in: kind.json, of: "the documents of \(kind.file)")
            }
        }
        return findings
    }
}
