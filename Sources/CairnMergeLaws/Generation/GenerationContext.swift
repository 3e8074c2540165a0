import CairnMerge

/// The drawing of one value for a ``DocumentGenerator``: the kind's schema (for `$ref`), the
/// IDs of the path (a field named after a placeholder takes its ID, `id` the document's own,
/// when its schema allows), the step whose stamps edits write, and the budget of the drawing.
///
/// Everything it draws comes from the ``SplitMix`` it is given, in an order that depends on
/// nothing else: keys of schemas and documents are visited sorted, never in a dictionary's
/// order (which changes from one process to the next).
struct GenerationContext {
    let generator: DocumentGenerator
    let kind: SchemaSet.Kind
    let root: JSONValue
    let captures: [String: String]
    let time: Int64?
    let budget = GenerationBudget()

    /// How deep values nest: as deep as a schema's references may.
    static let maxDepth = Schema.maxDepth

    func fail(_ pointer: String, _ reason: String) -> GenerationError {
        GenerationError(file: kind.file, pointer: pointer, reason: reason)
    }

    // MARK: Schemas

    /// `schema` with its `$ref` followed and its `allOf`, `anyOf` and `oneOf` members
    /// (one of each alternative, drawn) folded in; conditionals are returned apart, for
    /// the object they constrain to meet once drawn.
    func resolved(
        _ schema: JSONValue, pointer: String, using random: inout SplitMix,
        depth: Int = 0
    ) throws(GenerationError) -> (schema: JSONObject, conditions: [JSONObject]) {
        guard depth < Schema.maxDepth else { throw fail(pointer, "references nest too deep") }
        switch schema {
        case .bool(true): return ([:], [])
        case .bool(false): throw fail(pointer, "the schema allows no value")
        case .object(var keywords):
            var conditions: [JSONObject] = []
            if case .string(let reference)? = keywords.removeValue(forKey: "$ref") {
                guard let target = CompiledSchema.resolve(reference, in: root)?.target else {
                    throw fail(pointer, "$ref \(reference) does not resolve within the schema")
                }
                let (inner, more) = try resolved(target, pointer: pointer + "/$ref", using: &random, depth: depth + 1)
                keywords = Self.conjunction(inner, keywords)
                conditions += more
            }
            if case .array(let members)? = keywords.removeValue(forKey: "allOf") {
                for (index, member) in members.enumerated() {
                    if case .object(let fields) = member, fields["if"] != nil {
                        conditions.append(fields)
                        continue
                    }
                    let (inner, more) = try resolved(member, pointer: pointer + "/allOf/\(index)", using: &random, depth: depth + 1)
                    keywords = Self.conjunction(keywords, inner)
                    conditions += more
                }
            }
            for name in ["anyOf", "oneOf"] {
                guard case .array(let members)? = keywords.removeValue(forKey: name), !members.isEmpty else { continue }
                let index = Int.random(in: 0..<members.count, using: &random)
                let (inner, more) = try resolved(members[index], pointer: pointer + "/\(name)/\(index)", using: &random, depth: depth + 1)
                keywords = Self.conjunction(keywords, inner)
                conditions += more
            }
            if keywords["if"] != nil {
                conditions.append(keywords.filter { ["if", "then", "else"].contains($0.key) })
            }
            return (keywords, conditions)
        default:
            throw fail(pointer, "the schema is neither an object nor a boolean")
        }
    }

    /// Two schemas' keywords as one: types intersected, `required` joined, properties
    /// both sides name combined with `allOf`; otherwise the second's keyword. (What comes
    /// out does not depend on the order the keywords are visited in.)
    static func conjunction(_ first: JSONObject, _ second: JSONObject) -> JSONObject {
        var result = first
        for (key, value) in second {
            guard let existing = result[key] else {
                result[key] = value
                continue
            }
            switch key {
            case "required":
                let names =
                    (existing.arrayValue ?? []) + (value.arrayValue ?? []).filter { name in !(existing.arrayValue ?? []).contains(name) }
                result[key] = .array(names)
            case "properties":
                var properties = existing.objectValue ?? [:]
                for (name, schema) in value.objectValue ?? [:] {
                    properties[name] = properties[name].map { .object(["allOf": .array([$0, schema])]) } ?? schema
                }
                result[key] = .object(properties)
            case "type":
                let left = Set(types(existing)), right = Set(types(value))
                let both = left.intersection(right).union(left.contains("number") ? right.intersection(["integer"]) : [])
                    .union(right.contains("number") ? left.intersection(["integer"]) : [])
                result[key] = .array(both.sorted().map(JSONValue.string))
            default:
                result[key] = value
            }
        }
        return result
    }

    static func types(_ value: JSONValue) -> [String] {
        switch value {
        case .string(let name): [name]
        case .array(let names): names.compactMap { if case .string(let name) = $0 { name } else { nil } }
        default: []
        }
    }

    /// Whether `value` meets `schema` (read with the kind's schema as root).
    func accepts(_ value: JSONValue, _ schema: JSONValue) -> Bool {
        var validator = SchemaValidator(schema: CompiledSchema(schema, within: root))
        validator.tracksPaths = false
        return validator.errors(value).isEmpty
    }

    // MARK: Maps

    /// The schemas entries of an object with `keywords` are drawn from: its
    /// `additionalProperties` (unless false), then each of its `patternProperties` in the
    /// order of their patterns, each with its pointer and pattern.
    static func entrySchemas(
        _ keywords: JSONObject,
        pointer: String
    ) -> [(schema: JSONValue, pointer: String, pattern: String?)] {
        var schemas: [(schema: JSONValue, pointer: String, pattern: String?)] = []
        if let additional = keywords["additionalProperties"], additional != .bool(false) {
            schemas.append((additional, pointer + "/additionalProperties", nil))
        }
        let patterns = keywords["patternProperties"]?.objectValue ?? [:]
        for pattern in JSONValue.sortedKeys(patterns) {
            schemas.append((patterns[pattern]!, pointer + "/patternProperties/" + MergePolicy.escape(pattern), pattern))
        }
        return schemas
    }

    /// The schema the entry `key` of an object with `keywords` must meet, as the validator
    /// reads it: every pattern the key matches, else `additionalProperties`; nil when `key`
    /// is a declared property or no entry of that name is allowed.
    func entrySchema(for key: String, in keywords: JSONObject) -> JSONValue? {
        guard keywords["properties"]?.field(key) == nil else { return nil }
        let patterns = keywords["patternProperties"]?.objectValue ?? [:]
        let expressions = SchemaPatterns()
        let matched = JSONValue.sortedKeys(patterns).filter { expressions.matches(key, $0) == true }.map { patterns[$0]! }
        switch matched.count {
        case 0:
            let additional = keywords["additionalProperties"] ?? .bool(true)
            return additional == .bool(false) ? nil : additional
        case 1: return matched[0]
        default: return .object(["allOf": .array(matched)])
        }
    }

    // MARK: Bounds

    /// A numeric keyword (`minimum`, `multipleOf`, …): nil when absent; a value that is no
    /// finite number is an error.
    func bound(_ name: String, of keywords: JSONObject, pointer: String) throws(GenerationError) -> Double? {
        guard let value = keywords[name] else { return nil }
        guard let number = value.number, number.isFinite else {
            throw fail(pointer + "/" + name, "\(name) is \(value.inlineText), not a finite number")
        }
        return number
    }

    /// A count keyword (`minItems`, `maxLength`, …) as the validator reads it (a whole
    /// number, `2` or `2.0`): nil when absent; anything else, or a negative count, is an
    /// error; a minimum (`minimum: true`) above ``GenerationBudget/largestMinimum`` too.
    func count(_ name: String, of keywords: JSONObject, pointer: String, minimum: Bool) throws(GenerationError) -> Int? {
        guard let value = keywords[name] else { return nil }
        guard let count = SchemaValidator.count(value), count >= 0 else {
            throw fail(pointer + "/" + name, "\(name) is \(value.inlineText), not a count (a whole number from 0 to 9e18)")
        }
        if minimum, count > GenerationBudget.largestMinimum {
            throw fail(pointer + "/" + name, "\(name) is \(count); generated values hold at most \(GenerationBudget.largestMinimum)")
        }
        return Int(count)
    }

    /// Counts `amount` values or characters of the drawing at `pointer`, failing past the budget.
    func spend(_ amount: Int, at pointer: String) throws(GenerationError) {
        guard budget.spend(amount) else {
            throw fail(
                pointer, "documents of this schema hold more than \(GenerationBudget.limit) values and characters; lower its minimums")
        }
    }
}
