/// Why an `x-merge` annotation could not be read: where in the schema, and what was wrong.
public struct PolicyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The JSON pointer of the annotation in its schema.
    public var pointer: String
    public var reason: String

    public var description: String { "x-merge at \(pointer.isEmpty ? "/" : pointer): \(reason)" }
}

extension MergePolicy {
    /// Reads the policies a JSON Schema declares with `x-merge` (the Design article, *Policies*): the schema's own
    /// annotation (none: `fields`), and those of its `properties`, recursively.
    ///
    /// Annotations: `"fields"`, `{"lww": F}` (with `"future": "clamp"`, see ``MergeClock``), `{"highest": F, "then": G}`,
    /// `{"entries": "latest", "by": F}`, `"append-only"`, `{"append-only": {"latest": F}}`,
    /// `"counter"`, `"max"`, `"min"`,
    /// `"union"`. A property without one merges by `fields`.
    public init(schema: JSONValue) throws(PolicyError) {
        try self.init(schema: schema, pointer: "")
    }

    init(schema: JSONValue, pointer: String) throws(PolicyError) {
        var children: [String: MergePolicy] = [:]
        if case .object(let properties)? = schema.field("properties") {
            for (key, child) in properties {
                let childPointer = pointer + "/properties/" + Self.escape(key)
                let policy = try MergePolicy(schema: child, pointer: childPointer)
                // A property that merges as `fields` with nothing of its own named is the default.
                if policy != .plain { children[key] = policy }
            }
        }
        // A map: every key not named merges by the policy of `additionalProperties`, or of
        // the single pattern of `patternProperties`.
        var others: MergePolicy?
        if case .object? = schema.field("additionalProperties") {
            others = try MergePolicy(schema: schema.field("additionalProperties")!, pointer: pointer + "/additionalProperties")
        } else if case .object(let patterns)? = schema.field("patternProperties"), patterns.count == 1,
            let (pattern, child) = patterns.first
        {
            others = try MergePolicy(schema: child, pointer: pointer + "/patternProperties/" + Self.escape(pattern))
        }
        if others == .plain { others = nil }
        let where_ = pointer + "/x-merge"
        func fail(_ reason: String) -> PolicyError { PolicyError(pointer: where_, reason: reason) }
        func noChildren(_ policy: String) throws(PolicyError) {
            guard children.isEmpty, others == nil else {
                throw fail("\(policy) decides the whole value; its properties may not declare policies of their own")
            }
        }
        switch schema.field("x-merge") {
        case nil, .string("fields")?:
            self = .fields(children, others: others)
        case .string("append-only")?:
            try noChildren("append-only")
            self = .appendOnly
        case .string("counter")?:
            try noChildren("counter")
            self = .counter
        case .string("max")?:
            try noChildren("max")
            self = .max
        case .string("min")?:
            try noChildren("min")
            self = .min
        case .string("union")?:
            try noChildren("union")
            self = .union
        case .object(let annotation)?:
            if others != nil {
                throw fail("a map (additionalProperties, patternProperties) merges by fields; put the policy on its entries")
            }
            if let derive = annotation["derive"] {
                // Computed again after the merge; how it merges meanwhile does not matter.
                guard annotation.count == 1, Derivation(annotation: derive) != nil || DocumentCount(annotation: derive) != nil else {
                    throw fail(
                        "derive takes {\"count\": MAP, \"where\": {…}}, {\"latestKey\": MAP, \"by\": F}, {\"ratio\": [F, G], \"scale\": N} or {\"countDocuments\": \"collection/*/collection\", \"where\": {…}}"
                    )
                }
                self = .plain
                return
            }
            if case .object(let options)? = annotation["append-only"] {
                guard annotation.count == 1, options.count == 1, case .string(let field)? = options["latest"] else {
                    throw fail("append-only takes {\"latest\": F}: a duplicate creation keeps the side whose F is greater")
                }
                try noChildren("append-only")
                self = .appendOnlyLatest(by: field)
                return
            }
            if case .string(let field)? = annotation["lww"] {
                var future = MergeClock.FutureStamps.flag
                if let value = annotation["future"] {
                    guard case .string(let name) = value, let chosen = MergeClock.FutureStamps(rawValue: name) else {
                        throw fail("\"future\" is \"flag\" (the default) or \"clamp\"")
                    }
                    future = chosen
                }
                guard annotation.keys.allSatisfy({ $0 == "lww" || $0 == "future" }) else {
                    throw fail("lww takes \"lww\" and \"future\" only")
                }
                self = .lww(field, children: children, future: future)
            } else if case .string(let field)? = annotation["highest"] {
                var then: String?
                if let value = annotation["then"] {
                    guard case .string(let name) = value else { throw fail("\"then\" names a field, as a string") }
                    then = name
                }
                guard annotation.keys.allSatisfy({ $0 == "highest" || $0 == "then" }) else {
                    throw fail("highest takes \"highest\" and \"then\" only")
                }
                self = .highest(field, then: then, children: children)
            } else if annotation["entries"] == .string("latest"), case .string(let field)? = annotation["by"],
                annotation.count == 2
            {
                try noChildren("entries")
                self = .entriesLatest(by: field)
            } else {
                throw fail(
                    "unknown policy \(JSONValue.object(annotation).inlineText); use {\"lww\": F}, {\"highest\": F, \"then\": G} or {\"entries\": \"latest\", \"by\": F}"
                )
            }
        case let other?:
            throw fail("unknown policy \(other.inlineText); use fields, append-only, counter, max, min, union or an object form")
        }
    }
}
