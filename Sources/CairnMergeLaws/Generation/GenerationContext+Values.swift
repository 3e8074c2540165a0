import CairnMerge

extension GenerationContext {
    /// A value of `schema`. `key`: the property's name (hints: IDs, time stamps, map keys);
    /// `policy`: how it merges (stamps of `lww`, `highest`, `entries` are drawn as stamps);
    /// `stamp`: the value is the stamp a policy compares.
    func value(
        _ schema: JSONValue, pointer: String, key: String?, policy: MergePolicy = .plain,
        stamp: Bool = false, top: Bool = false, using random: inout SplitMix
    ) throws(GenerationError) -> JSONValue {
        budget.depth += 1
        defer { budget.depth -= 1 }
        guard budget.depth <= Self.maxDepth else {
            throw fail(pointer, "values nest deeper than \(Self.maxDepth) levels (the schema holds itself)")
        }
        try spend(1, at: pointer)
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
        if types.contains(where: { $0 != "null" }), types.contains("null"), Int.random(in: 0..<4, using: &random) != 0 {
            types.removeAll { $0 == "null" }
        }
        if stamp, let type = types.first(where: { $0 == "integer" || $0 == "string" || $0 == "number" }) {
            return try stampValue(type: type, keywords: keywords, pointer: pointer, using: &random)
        }
        let type = types.randomElement(using: &random)!
        switch type {
        case "null": return .null
        case "boolean": return .bool(Bool.random(using: &random))
        case "integer", "number": return try number(keywords, integer: type == "integer", pointer: pointer, using: &random)
        case "string": return try string(keywords, pointer: pointer, key: key, policy: policy, using: &random)
        case "array": return try array(keywords, pointer: pointer, key: key, using: &random)
        case "object":
            return try object(keywords, conditions: conditions, pointer: pointer, key: key, policy: policy, top: top, using: &random)
        default: throw fail(pointer + "/type", "unknown type \(type)")
        }
    }

    func inferredTypes(_ keywords: JSONObject) -> [String] {
        if ["properties", "required", "additionalProperties", "patternProperties", "minProperties"].contains(where: { keywords[$0] != nil })
        {
            return ["object"]
        }
        if ["items", "minItems", "maxItems", "uniqueItems"].contains(where: { keywords[$0] != nil }) { return ["array"] }
        if ["minLength", "maxLength", "pattern", "format"].contains(where: { keywords[$0] != nil }) { return ["string"] }
        if ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].contains(where: { keywords[$0] != nil }) {
            return ["number"]
        }
        return ["string", "integer", "boolean"]
    }

    /// The stamp of this step (or a fresh one without a step): an integer, or date-time text.
    func stampValue(
        type: String, keywords: JSONObject, pointer: String,
        using random: inout SplitMix
    ) throws(GenerationError) -> JSONValue {
        let step = time ?? Int64.random(in: 0..<1_000, using: &random)
        if type == "string" { return .string(GeneratedTime.stamp(step)) }
        let low = try bound("minimum", of: keywords, pointer: pointer).map { $0.rounded(.up) } ?? 0
        // Stamps count up from their minimum: one near the top of Int64 has nowhere to go.
        guard low < 1e18 else { throw fail(pointer + "/minimum", "a stamp counted up from \(low) would leave the 64-bit range") }
        return .integer(Swift.max(Int64(Swift.max(low, -1e18)), 1_000 + step))
    }

    /// A number within the bounds (exclusive ones, `multipleOf`): near the lower bound, or
    /// from 0 to 100 without bounds. Bounds no 64-bit number honours are errors.
    func number(
        _ keywords: JSONObject, integer: Bool, pointer: String,
        using random: inout SplitMix
    ) throws(GenerationError) -> JSONValue {
        let minimum = try bound("minimum", of: keywords, pointer: pointer)
        let maximum = try bound("maximum", of: keywords, pointer: pointer)
        let exclusiveMinimum = try bound("exclusiveMinimum", of: keywords, pointer: pointer)
        let exclusiveMaximum = try bound("exclusiveMaximum", of: keywords, pointer: pointer)
        let gap: Double = integer ? 1 : 0.25
        var low = minimum ?? 0
        var high = maximum ?? (low + 100)
        if let exclusive = exclusiveMinimum { low = Swift.max(low, exclusive + gap) }
        if let exclusive = exclusiveMaximum { high = Swift.min(high, exclusive - gap) }
        // A bound on one side only: a hundred on the other.
        if minimum == nil, exclusiveMinimum == nil, maximum != nil || exclusiveMaximum != nil, maximum == nil || high < low {
            low = high - 100
        }
        if maximum == nil, exclusiveMaximum == nil, high < low { high = low + 100 }
        let step = try bound("multipleOf", of: keywords, pointer: pointer) ?? (integer || Bool.random(using: &random) ? 1 : 0.25)
        guard step > 0 else { throw fail(pointer + "/multipleOf", "multipleOf is not positive") }
        let first = (low / step).rounded(.up)
        // Far apart bounds: numbers from the lower one.
        let last = Swift.min((high / step).rounded(.down), first + 1e15)
        guard first.isFinite, last.isFinite, first <= last else {
            throw fail(pointer, "no number lies within the bounds (from \(low) to \(high), a multiple of \(step))")
        }
        let multiple = first + Double(Int64.random(in: 0...Int64(last - first), using: &random))
        let value = multiple * step
        guard value.isFinite else { throw fail(pointer, "no number within the bounds can be written (\(low) to \(high))") }
        if value == value.rounded(), abs(value) < 1e15, integer || step == 1 { return .integer(Int64(value)) }
        return .double(value)
    }

    func string(
        _ keywords: JSONObject, pointer: String, key: String?, policy: MergePolicy,
        using random: inout SplitMix
    ) throws(GenerationError) -> JSONValue {
        let minimum = try count("minLength", of: keywords, pointer: pointer, minimum: true) ?? 0
        let maximum = try count("maxLength", of: keywords, pointer: pointer, minimum: false)
        if let maximum, maximum < minimum {
            throw fail(pointer + "/maxLength", "no string is at least \(minimum) and at most \(maximum) characters long")
        }
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
                try spend(text.unicodeScalars.count, at: pointer + "/pattern")
                if text.count >= minimum, maximum.map({ text.count <= $0 }) ?? true { return .string(text) }
            }
            throw fail(pointer + "/pattern", "no string of \(pattern) has the length allowed")
        }
        if keywords["format"] == .string("date-time") || isTime(key: key, policy: policy), maximum.map({ $0 >= 20 }) ?? true {
            let seconds = GeneratedTime.freshStart + Int64.random(in: 0..<(31 * 86_400), using: &random)
            return .string(ISO8601Stamp.text(seconds: seconds))
        }
        if case .string(let format)? = keywords["format"], !["date-time"].contains(format) {
            throw fail(pointer + "/format", "strings of format \(format) are not generated")
        }
        let upper = Swift.max(minimum, maximum ?? (minimum + 6))
        let length = Int.random(in: Swift.max(minimum, Swift.min(1, upper))...Swift.min(upper, minimum + 6), using: &random)
        try spend(length, at: pointer)
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

    func array(
        _ keywords: JSONObject, pointer: String, key: String?,
        using random: inout SplitMix
    ) throws(GenerationError) -> JSONValue {
        let minimum = try count("minItems", of: keywords, pointer: pointer, minimum: true) ?? 0
        let maximum = try count("maxItems", of: keywords, pointer: pointer, minimum: false) ?? (minimum + 3)
        guard maximum >= minimum else {
            throw fail(pointer + "/maxItems", "no array holds at least \(minimum) and at most \(maximum) items")
        }
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

    func object(
        _ keywords: JSONObject, conditions: [JSONObject], pointer: String, key: String?,
        policy: MergePolicy, top: Bool, using random: inout SplitMix
    ) throws(GenerationError) -> JSONValue {
        let properties = keywords["properties"]?.objectValue ?? [:]
        let required = Set((keywords["required"]?.arrayValue ?? []).compactMap { if case .string(let name) = $0 { name } else { nil } })
        let minimum = try count("minProperties", of: keywords, pointer: pointer, minimum: true) ?? 0
        let maximum = try count("maxProperties", of: keywords, pointer: pointer, minimum: false) ?? Int.max
        var fields: JSONObject = [:]
        for name in JSONValue.sortedKeys(properties) {
            if top, kind.derived[name] != nil || kind.counted[name] != nil { continue }
            // The version of pinned content is Cairn's to fill from a download, not the app's.
            if top, kind.pin?.versionField == name, !required.contains(name) { continue }
            // An asset field points to bytes a device holds: generated documents hold none.
            if top, kind.assets[name] != nil, !required.contains(name) { continue }
            guard required.contains(name) || policy.comparedFields.contains(name) || Int.random(in: 0..<5, using: &random) < 3 else {
                continue
            }
            fields[name] = try property(
                name, properties[name]!, of: policy, pointer: pointer + "/properties/" + MergePolicy.escape(name), using: &random)
        }
        for name in required.sorted() where fields[name] == nil && properties[name] == nil && !(top && kind.computedFields.contains(name)) {
            let schema = keywords["additionalProperties"].flatMap { $0 == .bool(false) ? nil : $0 } ?? .bool(true)
            fields[name] = try value(schema, pointer: pointer + "/required", key: name, using: &random)
        }
        // Map entries: of additionalProperties, and of each pattern in turn; each entry meets
        // every schema its key falls under.
        let others = policy.entryPolicy ?? .plain
        let entrySchemas = Self.entrySchemas(keywords, pointer: pointer)
        for entries in entrySchemas {
            let count = Int.random(in: 0...3, using: &random)
            for _ in 0..<count where fields.count < maximum {
                let name = try mapKey(for: key, pattern: entries.pattern, pointer: entries.pointer, using: &random)
                guard fields[name] == nil, properties[name] == nil, let schema = entrySchema(for: name, in: keywords) else { continue }
                fields[name] = try entry(schema, of: others, pointer: entries.pointer, key: name, using: &random)
            }
        }
        if fields.count < minimum, let entries = entrySchemas.first {
            // Keys of the first pattern, or (without one) the map's keys counted up from
            // the five it meets on.
            var tries = 0
            var next = 5
            while fields.count < minimum {
                tries += 1
                guard tries < (minimum + 1) * DocumentGenerator.attempts else {
                    throw fail(pointer + "/minProperties", "not enough keys can be generated")
                }
                var name = try mapKey(for: key, pattern: entries.pattern, pointer: entries.pointer, using: &random)
                if entries.pattern == nil, fields[name] != nil || properties[name] != nil {
                    name = DocumentGenerator.prefix(of: key ?? "k") + String(next)
                    next += 1
                }
                guard fields[name] == nil, properties[name] == nil, let schema = entrySchema(for: name, in: keywords) else { continue }
                fields[name] = try entry(schema, of: others, pointer: entries.pointer, key: name, using: &random)
            }
        }
        var result = JSONValue.object(fields)
        // Conditionals: what the drawn object must also meet; a met one can make another
        // hold, so a few rounds.
        for _ in 0..<3 where !conditions.isEmpty {
            for condition in conditions {
                guard let test = condition["if"] else { continue }
                let branch = accepts(result, test) ? condition["then"] : condition["else"]
                guard let branch else { continue }
                result = try meet(
                    result, branch, properties: properties, policy: policy,
                    pointer: pointer + "/allOf", using: &random)
            }
        }
        return result
    }

    /// `object` changed to meet `branch` (a conditional's `then` or `else`): its required
    /// properties drawn, and properties it refuses drawn again under both schemas.
    func meet(
        _ object: JSONValue, _ branch: JSONValue, properties: JSONObject, policy: MergePolicy,
        pointer: String, using random: inout SplitMix
    ) throws(GenerationError) -> JSONValue {
        guard case .object(var fields) = object, case .object(let keywords) = branch else { return object }
        let constraints = keywords["properties"]?.objectValue ?? [:]
        let required = (keywords["required"]?.arrayValue ?? []).compactMap { if case .string(let name) = $0 { name } else { nil } }
        for name in Set(required).union(constraints.keys).sorted() {
            let present = fields[name]
            guard (present == nil && required.contains(name)) || (present != nil && !accepts(present!, constraints[name] ?? .bool(true)))
            else { continue }
            let schema: JSONValue = .object(["allOf": .array([properties[name] ?? .bool(true), constraints[name] ?? .bool(true)])])
            fields[name] = try property(name, schema, of: policy, pointer: pointer, using: &random)
        }
        return .object(fields)
    }

    /// A property's value, under the policy its object gives it.
    func property(
        _ name: String, _ schema: JSONValue, of policy: MergePolicy, pointer: String,
        using random: inout SplitMix
    ) throws(GenerationError) -> JSONValue {
        let child = policy.children[name] ?? .plain
        return try value(schema, pointer: pointer, key: name, policy: child, stamp: policy.stampFields.contains(name), using: &random)
    }

    /// A map's entry, under the map's entry policy (`entries` stamp their `by` field).
    func entry(
        _ schema: JSONValue, of policy: MergePolicy, pointer: String, key: String,
        using random: inout SplitMix
    ) throws(GenerationError) -> JSONValue {
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
