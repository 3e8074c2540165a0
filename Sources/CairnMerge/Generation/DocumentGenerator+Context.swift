extension DocumentGenerator {
    /// The drawing of one value: the kind's schema (for `$ref`), the IDs of the path (a field
    /// named after a placeholder takes its ID, `id` the document's own, when its schema
    /// allows), and the step whose stamps edits write.
    struct Context {
        let generator: DocumentGenerator
        let kind: SchemaSet.Kind
        let root: JSONValue
        let captures: [String: String]
        let time: Int64?

        func fail(_ pointer: String, _ reason: String) -> GenerationError {
            GenerationError(file: kind.file, pointer: pointer, reason: reason)
        }

        // MARK: Schemas

        /// `schema` with its `$ref` followed and its `allOf`, `anyOf` and `oneOf` members
        /// (one of each alternative, drawn) folded in; conditionals are returned apart, for
        /// the object they constrain to meet once drawn.
        func resolved(_ schema: JSONValue, pointer: String, using random: inout SplitMix,
                      depth: Int = 0) throws(GenerationError) -> (schema: [String: JSONValue], conditions: [[String: JSONValue]]) {
            guard depth < Schema.maxDepth else { throw fail(pointer, "references nest too deep") }
            switch schema {
            case .bool(true): return ([:], [])
            case .bool(false): throw fail(pointer, "the schema allows no value")
            case .object(var keywords):
                var conditions: [[String: JSONValue]] = []
                if case .string(let reference)? = keywords.removeValue(forKey: "$ref") {
                    guard let target = resolve(reference) else { throw fail(pointer, "$ref \(reference) does not resolve within the schema") }
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

        /// A reference within the schema: `#`, `#/$defs/name`, any JSON pointer.
        func resolve(_ reference: String) -> JSONValue? {
            guard reference.hasPrefix("#") else { return nil }
            var value = root
            for token in reference.dropFirst().split(separator: "/", omittingEmptySubsequences: true) {
                let key = String(token).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                switch value {
                case .object(let fields): guard let next = fields[key] else { return nil }; value = next
                case .array(let items): guard let index = Int(key), items.indices.contains(index) else { return nil }; value = items[index]
                default: return nil
                }
            }
            return value
        }

        /// Two schemas' keywords as one: types intersected, `required` joined, properties
        /// both sides name combined with `allOf`; otherwise the second's keyword.
        static func conjunction(_ first: [String: JSONValue], _ second: [String: JSONValue]) -> [String: JSONValue] {
            var result = first
            for (key, value) in second {
                guard let existing = result[key] else { result[key] = value; continue }
                switch key {
                case "required":
                    let names = (existing.arrayValue ?? []) + (value.arrayValue ?? []).filter { name in !(existing.arrayValue ?? []).contains(name) }
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
            var validator = SchemaValidator(root: root)
            validator.tracksPaths = false
            return validator.errors(value, against: schema, schemaPath: "", instancePath: "", depth: 0).isEmpty
        }

        // MARK: Values

        /// A value of `schema`. `key`: the property's name (hints: IDs, time stamps, map keys);
        /// `policy`: how it merges (stamps of `lww`, `highest`, `entries` are drawn as stamps);
        /// `stamp`: the value is the stamp a policy compares.
        func value(_ schema: JSONValue, pointer: String, key: String?, policy: MergePolicy = .plain,
                   stamp: Bool = false, top: Bool = false, using random: inout SplitMix) throws(GenerationError) -> JSONValue {
            let (keywords, conditions) = try resolved(schema, pointer: pointer, using: &random)
            if let constant = keywords["const"] { return constant }
            if case .array(let choices)? = keywords["enum"] {
                guard !choices.isEmpty else { throw fail(pointer + "/enum", "an empty enum allows no value") }
                let allowed = choices.filter { accepts($0, .object(keywords.filter { $0.key != "enum" })) }
                return (allowed.isEmpty ? choices : allowed).randomElement(using: &random)!
            }
            var types = keywords["type"].map(Self.types) ?? []
            if keywords["type"] != nil, types.isEmpty { throw fail(pointer + "/type", "no type is allowed") }
            if types.isEmpty { types = inferredTypes(keywords) }
            // Null only now and then, when something else is allowed.
            if types.count > 1, types.contains("null"), Int.random(in: 0..<4, using: &random) != 0 {
                types.removeAll { $0 == "null" }
            }
            if stamp, let type = types.first(where: { $0 == "integer" || $0 == "string" || $0 == "number" }) {
                return stampValue(type: type, keywords: keywords, using: &random)
            }
            let type = types.randomElement(using: &random)!
            switch type {
            case "null": return .null
            case "boolean": return .bool(Bool.random(using: &random))
            case "integer", "number": return try number(keywords, integer: type == "integer", pointer: pointer, using: &random)
            case "string": return try string(keywords, pointer: pointer, key: key, policy: policy, using: &random)
            case "array": return try array(keywords, pointer: pointer, key: key, using: &random)
            case "object": return try object(keywords, conditions: conditions, pointer: pointer, key: key, policy: policy, top: top, using: &random)
            default: throw fail(pointer + "/type", "unknown type \(type)")
            }
        }

        func inferredTypes(_ keywords: [String: JSONValue]) -> [String] {
            if ["properties", "required", "additionalProperties", "patternProperties", "minProperties"].contains(where: { keywords[$0] != nil }) { return ["object"] }
            if ["items", "minItems", "maxItems", "uniqueItems"].contains(where: { keywords[$0] != nil }) { return ["array"] }
            if ["minLength", "maxLength", "pattern", "format"].contains(where: { keywords[$0] != nil }) { return ["string"] }
            if ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].contains(where: { keywords[$0] != nil }) { return ["number"] }
            return ["string", "integer", "boolean"]
        }

        /// The stamp of this step (or a fresh one without a step): an integer, or date-time text.
        func stampValue(type: String, keywords: [String: JSONValue], using random: inout SplitMix) -> JSONValue {
            let step = time ?? Int64.random(in: 0..<1_000, using: &random)
            if type == "string" { return .string(GeneratedTime.stamp(step)) }
            let low = keywords["minimum"]?.number.map { Int64($0.rounded(.up)) } ?? 0
            return .integer(Swift.max(low, 1_000 + step))
        }

        func number(_ keywords: [String: JSONValue], integer: Bool, pointer: String,
                    using random: inout SplitMix) throws(GenerationError) -> JSONValue {
            var low = keywords["minimum"]?.number ?? 0
            var high = keywords["maximum"]?.number ?? (low + 100)
            if let exclusive = keywords["exclusiveMinimum"]?.number { low = Swift.max(low, exclusive + (integer ? 1 : 0.25)) }
            if let exclusive = keywords["exclusiveMaximum"]?.number { high = Swift.min(high, exclusive - (integer ? 1 : 0.25)) }
            if keywords["maximum"] == nil, keywords["minimum"] == nil, keywords["exclusiveMaximum"] != nil { low = high - 100 }
            let step = keywords["multipleOf"]?.number ?? (integer || Bool.random(using: &random) ? 1 : 0.25)
            guard step > 0 else { throw fail(pointer + "/multipleOf", "multipleOf is not positive") }
            let first = (low / step).rounded(.up), last = (high / step).rounded(.down)
            guard first <= last, last - first < 1e15 else { throw fail(pointer, "no number lies within the bounds") }
            let multiple = first + Double(Int64.random(in: 0...Int64(Swift.min(last - first, 1e15)), using: &random))
            let value = multiple * step
            if value == value.rounded(), abs(value) < 1e15, integer || step == 1 { return .integer(Int64(value)) }
            return .double(value)
        }

        func string(_ keywords: [String: JSONValue], pointer: String, key: String?, policy: MergePolicy,
                    using random: inout SplitMix) throws(GenerationError) -> JSONValue {
            let minimum = keywords["minLength"]?.number.map(Int.init) ?? 0
            let maximum = keywords["maxLength"]?.number.map(Int.init)
            if let key, let id = hint(for: key), accepts(.string(id), .object(keywords)) { return .string(id) }
            if case .string(let pattern)? = keywords["pattern"] {
                let generator: PatternGenerator
                do {
                    generator = try PatternGenerator(pattern)
                } catch {
                    throw fail(pointer + "/pattern", "the pattern \(pattern) cannot be generated from: \(error.reason)")
                }
                for _ in 0..<DocumentGenerator.attempts {
                    let text = generator.generate(using: &random)
                    if text.count >= minimum, maximum.map({ text.count <= $0 }) ?? true { return .string(text) }
                }
                throw fail(pointer + "/pattern", "no string of \(pattern) has the length allowed")
            }
            if keywords["format"] == .string("date-time") || isTime(key: key, policy: policy), maximum.map({ $0 >= 20 }) ?? true {
                let seconds = GeneratedTime.freshStart + Int64.random(in: 0..<(31 * 86_400), using: &random)
                return .string(GeneratedTime.text(seconds))
            }
            if case .string(let format)? = keywords["format"], !["date-time"].contains(format) {
                throw fail(pointer + "/format", "strings of format \(format) are not generated")
            }
            let upper = Swift.max(minimum, maximum ?? (minimum + 6))
            let length = Int.random(in: Swift.max(minimum, Swift.min(1, upper))...Swift.min(upper, minimum + 6), using: &random)
            let letters = Array("abcdefgh")
            return .string(String((0..<length).map { _ in letters.randomElement(using: &random)! }))
        }

        /// Whether a string field holds a time: one `max` or `min` compares, or named like one
        /// (`…At`, `…Date`, `…Timestamp`).
        func isTime(key: String?, policy: MergePolicy) -> Bool {
            if policy == .max || policy == .min { return true }
            guard let key else { return false }
            return key.hasSuffix("At") || key.hasSuffix("Date") || key.hasSuffix("Timestamp") || key.hasSuffix("_at")
        }

        /// The ID a field named `key` takes: a placeholder's, or the document's own for `id`.
        func hint(for key: String) -> String? {
            if let id = captures[key], kind.pattern.placeholders.first != key { return id }
            if key == "id", let last = kind.pattern.placeholders.last, last != kind.pattern.placeholders.first {
                return captures[last]
            }
            return nil
        }

        func array(_ keywords: [String: JSONValue], pointer: String, key: String?,
                   using random: inout SplitMix) throws(GenerationError) -> JSONValue {
            let minimum = keywords["minItems"]?.number.map(Int.init) ?? 0
            let maximum = Swift.max(minimum, keywords["maxItems"]?.number.map(Int.init) ?? (minimum + 3))
            let count = Int.random(in: minimum...Swift.min(maximum, minimum + 3), using: &random)
            let items = keywords["items"] ?? .bool(true)
            let unique = keywords["uniqueItems"] == .bool(true)
            var elements: [JSONValue] = []
            var tries = 0
            while elements.count < count {
                tries += 1
                guard tries < count * DocumentGenerator.attempts + 1 else {
                    throw fail(pointer + "/uniqueItems", "not enough distinct items can be generated")
                }
                let element = try value(items, pointer: pointer + "/items", key: key, using: &random)
                if unique, elements.contains(where: { JSONValue.same($0, element) }) { continue }
                elements.append(element)
            }
            return .array(elements)
        }

        func object(_ keywords: [String: JSONValue], conditions: [[String: JSONValue]], pointer: String, key: String?,
                    policy: MergePolicy, top: Bool, using random: inout SplitMix) throws(GenerationError) -> JSONValue {
            let properties = keywords["properties"]?.objectValue ?? [:]
            let required = Set((keywords["required"]?.arrayValue ?? []).compactMap { if case .string(let name) = $0 { name } else { nil } })
            var fields: [String: JSONValue] = [:]
            for name in JSONValue.sortedKeys(properties) {
                if top, kind.derived[name] != nil || kind.counted[name] != nil { continue }
                guard required.contains(name) || policy.comparedFields.contains(name) || Int.random(in: 0..<5, using: &random) < 3 else { continue }
                fields[name] = try property(name, properties[name]!, of: policy, pointer: pointer + "/properties/" + MergePolicy.escape(name), using: &random)
            }
            for name in required.sorted() where fields[name] == nil && properties[name] == nil && !(top && kind.computedFields.contains(name)) {
                let schema = keywords["additionalProperties"].flatMap { $0 == .bool(false) ? nil : $0 } ?? .bool(true)
                fields[name] = try value(schema, pointer: pointer + "/required", key: name, using: &random)
            }
            // Map entries: of additionalProperties, or of each pattern.
            let others = policy.entryPolicy
            var entrySchemas: [(schema: JSONValue, pointer: String, pattern: String?)] = []
            if let additional = keywords["additionalProperties"], additional != .bool(false) {
                entrySchemas.append((additional, pointer + "/additionalProperties", nil))
            }
            for (pattern, schema) in keywords["patternProperties"]?.objectValue ?? [:] {
                entrySchemas.append((schema, pointer + "/patternProperties/" + MergePolicy.escape(pattern), pattern))
            }
            let minimum = keywords["minProperties"]?.number.map(Int.init) ?? 0
            let maximum = keywords["maxProperties"]?.number.map(Int.init) ?? Int.max
            for entries in entrySchemas {
                let count = Int.random(in: 0...3, using: &random)
                for _ in 0..<count where fields.count < maximum {
                    let name = try mapKey(for: key, pattern: entries.pattern, pointer: entries.pointer, using: &random)
                    guard fields[name] == nil, properties[name] == nil else { continue }
                    fields[name] = try entry(entries.schema, of: others ?? .plain, pointer: entries.pointer, key: name, using: &random)
                }
            }
            var tries = 0
            while fields.count < minimum, let entries = entrySchemas.first {
                tries += 1
                guard tries < DocumentGenerator.attempts else { throw fail(pointer + "/minProperties", "not enough keys can be generated") }
                let name = try mapKey(for: key, pattern: entries.pattern, pointer: entries.pointer, using: &random)
                guard fields[name] == nil else { continue }
                fields[name] = try entry(entries.schema, of: others ?? .plain, pointer: entries.pointer, key: name, using: &random)
            }
            var result = JSONValue.object(fields)
            // Conditionals: what the drawn object must also meet; a met one can make another
            // hold, so a few rounds.
            for _ in 0..<3 where !conditions.isEmpty {
                for condition in conditions {
                    guard let test = condition["if"] else { continue }
                    let branch = accepts(result, test) ? condition["then"] : condition["else"]
                    guard let branch else { continue }
                    result = try meet(result, branch, properties: properties, policy: policy,
                                      pointer: pointer + "/allOf", using: &random)
                }
            }
            return result
        }

        /// `object` changed to meet `branch` (a conditional's `then` or `else`): its required
        /// properties drawn, and properties it refuses drawn again under both schemas.
        func meet(_ object: JSONValue, _ branch: JSONValue, properties: [String: JSONValue], policy: MergePolicy,
                  pointer: String, using random: inout SplitMix) throws(GenerationError) -> JSONValue {
            guard case .object(var fields) = object, case .object(let keywords) = branch else { return object }
            let constraints = keywords["properties"]?.objectValue ?? [:]
            let required = (keywords["required"]?.arrayValue ?? []).compactMap { if case .string(let name) = $0 { name } else { nil } }
            for name in Set(required).union(constraints.keys).sorted() {
                let present = fields[name]
                guard (present == nil && required.contains(name)) || (present != nil && !accepts(present!, constraints[name] ?? .bool(true))) else { continue }
                let schema: JSONValue = .object(["allOf": .array([properties[name] ?? .bool(true), constraints[name] ?? .bool(true)])])
                fields[name] = try property(name, schema, of: policy, pointer: pointer, using: &random)
            }
            return .object(fields)
        }

        /// A property's value, under the policy its object gives it.
        func property(_ name: String, _ schema: JSONValue, of policy: MergePolicy, pointer: String,
                      using random: inout SplitMix) throws(GenerationError) -> JSONValue {
            let child = policy.children[name] ?? .plain
            return try value(schema, pointer: pointer, key: name, policy: child, stamp: policy.stampFields.contains(name), using: &random)
        }

        /// A map's entry, under the map's entry policy (`entries` stamp their `by` field).
        func entry(_ schema: JSONValue, of policy: MergePolicy, pointer: String, key: String,
                   using random: inout SplitMix) throws(GenerationError) -> JSONValue {
            try value(schema, pointer: pointer, key: key, policy: policy, using: &random)
        }

        /// A key of a map: from its pattern, else one of five (`s0`…`s4` for `sections`).
        func mapKey(for map: String?, pattern: String?, pointer: String, using random: inout SplitMix) throws(GenerationError) -> String {
            if let pattern {
                do {
                    return try PatternGenerator(pattern).generate(using: &random)
                } catch {
                    throw fail(pointer, "the pattern \(pattern) cannot be generated from: \(error.reason)")
                }
            }
            return DocumentGenerator.prefix(of: map ?? "k") + String(Int.random(in: 0..<5, using: &random))
        }
    }
}

extension JSONValue {
    /// The array's elements, or nil when the value is not an array.
    var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
