/// The checking behind ``Schema/validate(_:)``: one pass over the instance, along the nodes
/// of the schema as compiled once (``CompiledSchema``), with its regular expressions
/// compiled once too.
package struct SchemaValidator {
    private let schema: CompiledSchema
    private let patterns: SchemaPatterns
    /// Whether errors say where they are. A first pass without (nearly every document is
    /// valid) builds no path strings; a second one with them runs only for an invalid document.
    package var tracksPaths = true

    /// `patterns`: the schema's compiled expressions, kept between checks (a new cache by default).
    package init(schema: CompiledSchema, patterns: SchemaPatterns = SchemaPatterns()) {
        self.schema = schema
        self.patterns = patterns
    }

    /// Every way `instance` breaks the schema's root.
    package mutating func errors(_ instance: JSONValue) -> [ValidationError] {
        errors(instance, against: schema.root, schemaPath: "", instancePath: "", depth: 0)
    }

    /// Every way `instance` breaks the node at `index`. One function on purpose: every put
    /// runs it, and split into a method per group of keywords it validated 8–12% slower
    /// (best of 15 runs over 1,000 generated documents: 1.93–2.11 µs a document whole,
    /// 2.18–2.40 µs split, with the node passed apart or not, inlined or not).
    mutating func errors(
        _ instance: JSONValue, against index: Int, schemaPath: String,
        instancePath: String, depth: Int
    ) -> [ValidationError] {
        var found: [ValidationError] = []
        func fail(_ keyword: String, _ message: String) {
            found.append(
                ValidationError(
                    pointer: instancePath, keyword: keyword,
                    schemaPath: schemaPath + "/" + keyword, message: message))
        }
        let node = schema.nodes[index]
        switch node.form {
        case .accepting: return []
        case .rejecting:
            return [
                ValidationError(
                    pointer: instancePath, keyword: "false", schemaPath: schemaPath,
                    message: "no value is allowed here")
            ]
        case .malformed:
            return [
                ValidationError(
                    pointer: instancePath, keyword: "schema", schemaPath: schemaPath,
                    message: "the schema here is neither an object nor a boolean")
            ]
        case .keywords: break
        }
        guard depth < Schema.maxDepth else {
            return [
                ValidationError(
                    pointer: instancePath, keyword: "$ref", schemaPath: schemaPath,
                    message: "references nest deeper than \(Schema.maxDepth) levels; the schema loops")
            ]
        }
        func keyword(_ known: Keyword) -> JSONValue? { node[known] }

        func sub(
            _ value: JSONValue, _ subschema: Int, _ path: @autoclosure () -> String,
            _ pointer: @autoclosure () -> String, depth extra: Int = 0
        ) -> [ValidationError] {
            errors(
                value, against: subschema, schemaPath: tracksPaths ? path() : "",
                instancePath: tracksPaths ? pointer() : "", depth: depth + extra)
        }
        func valid(_ value: JSONValue, _ subschema: Int, _ path: @autoclosure () -> String) -> Bool {
            sub(value, subschema, path(), instancePath).isEmpty
        }

        switch node.reference {
        case .node(let target)?:
            found += sub(instance, target, schemaPath + "/$ref", instancePath, depth: 1)
        case .unresolved(let reference)?:
            fail("$ref", "reference \(reference) does not resolve within the schema")
        case nil:
            break
        }

        // Any type.
        if let type = keyword(.type) {
            let names: [String]
            switch type {
            case .string(let name): names = [name]
            case .array(let list): names = list.compactMap { if case .string(let name) = $0 { name } else { nil } }
            default: names = []
            }
            if !names.contains(where: { Self.has(instance, type: $0) }) {
                fail("type", "is \(instance.typeName), must be \(names.joined(separator: " or "))")
            }
        }
        if case .array(let allowed)? = keyword(.enumeration), !allowed.contains(where: { Self.equal($0, instance) }) {
            fail("enum", "is not one of the allowed values")
        }
        if let constant = keyword(.constant), !Self.equal(constant, instance) {
            fail("const", "must be \(Self.short(constant))")
        }

        // Numbers.
        if instance.number != nil {
            if let divisor = keyword(.multipleOf)?.number, divisor > 0, !Self.isMultiple(instance, of: keyword(.multipleOf)!) {
                fail("multipleOf", "must be a multiple of \(Self.short(.double(divisor)))")
            }
            for (bound, holds) in Self.bounds {
                if let limit = keyword(bound), limit.number != nil, !holds(Self.compareNumbers(instance, limit)) {
                    fail(bound.name, "is \(Self.short(instance)); \(bound.name) is \(Self.short(limit))")
                }
            }
        }

        // Strings.
        if case .string(let text) = instance {
            let length = text.unicodeScalars.count
            if let minimum = Self.count(keyword(.minLength)), length < minimum {
                fail("minLength", "is \(length) characters; at least \(minimum) needed")
            }
            if let maximum = Self.count(keyword(.maxLength)), length > maximum {
                fail("maxLength", "is \(length) characters; at most \(maximum) allowed")
            }
            if case .string(let pattern)? = keyword(.pattern) {
                switch matches(text, pattern) {
                case true?: break
                case false?: fail("pattern", "does not match \(pattern)")
                case nil: fail("pattern", "the pattern \(pattern) is not a regular expression this validator reads")
                }
            }
        }

        // Arrays.
        if case .array(let elements) = instance {
            var prefix = 0
            if let schemas = node.prefixItems {
                for (index, (element, itemSchema)) in zip(elements, schemas).enumerated() {
                    found += sub(element, itemSchema, schemaPath + "/prefixItems/\(index)", instancePath + "/\(index)")
                }
                prefix = schemas.count
            }
            if let itemSchema = node.items {
                for index in elements.indices where index >= prefix {
                    found += sub(elements[index], itemSchema, schemaPath + "/items", instancePath + "/\(index)")
                }
            }
            if let containsSchema = node.contains {
                let count = elements.filter { valid($0, containsSchema, schemaPath + "/contains") }.count
                let minimum = Self.count(keyword(.minContains)) ?? 1
                if count < minimum {
                    fail(
                        keyword(.minContains) == nil ? "contains" : "minContains",
                        "holds \(count) matching element(s); at least \(minimum) needed")
                }
                if let maximum = Self.count(keyword(.maxContains)), count > maximum {
                    fail("maxContains", "holds \(count) matching elements; at most \(maximum) allowed")
                }
            }
            if let minimum = Self.count(keyword(.minItems)), elements.count < minimum {
                fail("minItems", "has \(elements.count) items; at least \(minimum) needed")
            }
            if let maximum = Self.count(keyword(.maxItems)), elements.count > maximum {
                fail("maxItems", "has \(elements.count) items; at most \(maximum) allowed")
            }
            if keyword(.uniqueItems) == .bool(true) {
                outer: for first in elements.indices {
                    for second in elements.indices where second > first && Self.equal(elements[first], elements[second]) {
                        fail("uniqueItems", "items \(first) and \(second) are equal")
                        break outer
                    }
                }
            }
        }

        // Objects.
        if case .object(let fields) = instance {
            // Keys and names in ASCII have one spelling each: then both sorted lists are
            // walked once, where other spellings need a lookup each.
            let walking = !fields.hasNonASCIIKey
            if case .array(let names)? = keyword(.required), !(walking && node.holdsRequired(fields) == true) {
                for case .string(let name) in names where fields[name] == nil {
                    fail("required", "lacks the required field \"\(name)\"")
                }
            }
            if case .object(let dependencies)? = keyword(.dependentRequired) {
                for trigger in JSONValue.sortedKeys(dependencies) where fields[trigger] != nil {
                    if case .array(let names) = dependencies[trigger]! {
                        for case .string(let name) in names where fields[name] == nil {
                            fail("dependentRequired", "has \"\(trigger)\", so needs \"\(name)\"")
                        }
                    }
                }
            }
            if let minimum = Self.count(keyword(.minProperties)), fields.count < minimum {
                fail("minProperties", "has \(fields.count) fields; at least \(minimum) needed")
            }
            if let maximum = Self.count(keyword(.maxProperties)), fields.count > maximum {
                fail("maxProperties", "has \(fields.count) fields; at most \(maximum) allowed")
            }
            // Fields in canonical order, the order errors are reported in.
            let properties = node.properties
            let walkingProperties = walking && !properties.hasNonASCIIKey
            var next = 0
            for (key, value) in fields {
                let pointer = tracksPaths ? instancePath + "/" + MergePolicy.escape(key) : ""
                var matched = false
                var declared: Int?
                if walkingProperties {
                    while next < properties.count {
                        let order = JSONObject.compare(properties[next].key, key)
                        if order == 0 { declared = node.property(at: next) }
                        if order >= 0 { break }
                        next += 1
                    }
                } else {
                    declared = node.property(key)
                }
                if let propertySchema = declared {
                    matched = true
                    found += sub(value, propertySchema, schemaPath + "/properties/" + MergePolicy.escape(key), pointer)
                }
                for (pattern, patternSchema) in node.patternProperties where matches(key, pattern) == true {
                    matched = true
                    found += sub(value, patternSchema, schemaPath + "/patternProperties/" + MergePolicy.escape(pattern), pointer)
                }
                if !matched, let additional = node.additionalProperties {
                    if schema.nodes[additional].form == .rejecting {
                        fail("additionalProperties", "has the field \"\(key)\", which the schema does not allow")
                    } else {
                        found += sub(value, additional, schemaPath + "/additionalProperties", pointer)
                    }
                }
                if let names = node.propertyNames, !valid(.string(key), names, schemaPath + "/propertyNames") {
                    fail("propertyNames", "has the field name \"\(key)\", which the schema does not allow")
                }
            }
            for (key, dependent) in node.dependentSchemas where fields[key] != nil {
                found += sub(instance, dependent, schemaPath + "/dependentSchemas/" + MergePolicy.escape(key), instancePath)
            }
        }

        // Combinations.
        if let schemas = node.allOf {
            for (index, subschema) in schemas.enumerated() {
                found += sub(instance, subschema, schemaPath + "/allOf/\(index)", instancePath)
            }
        }
        if let schemas = node.anyOf,
            !schemas.indices.contains(where: { valid(instance, schemas[$0], schemaPath + "/anyOf/\($0)") })
        {
            fail("anyOf", "matches none of the \(schemas.count) alternatives")
        }
        if let schemas = node.oneOf {
            let count = schemas.indices.filter { valid(instance, schemas[$0], schemaPath + "/oneOf/\($0)") }.count
            if count != 1 { fail("oneOf", "matches \(count) of the alternatives; exactly one must match") }
        }
        if let negated = node.not, valid(instance, negated, schemaPath + "/not") {
            fail("not", "matches a schema it must not match")
        }
        if let condition = node.ifSchema {
            if valid(instance, condition, schemaPath + "/if") {
                if let then = node.thenSchema { found += sub(instance, then, schemaPath + "/then", instancePath) }
            } else if let otherwise = node.elseSchema {
                found += sub(instance, otherwise, schemaPath + "/else", instancePath)
            }
        }
        return found
    }

    /// Whether `text` contains a match of `pattern` (ECMA-262 patterns are not anchored);
    /// nil when the pattern cannot be compiled.
    func matches(_ text: String, _ pattern: String) -> Bool? {
        patterns.matches(text, pattern)
    }

    /// A count limit (`minItems`, `maxLength`, …): an integer, written `2` or `2.0`.
    package static func count(_ value: JSONValue?) -> Int64? {
        switch value {
        case .integer(let integer)?: integer
        case .double(let double)? where double == double.rounded() && abs(double) < 9e18: Int64(double)
        default: nil
        }
    }

    static func has(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object): true
        case ("number", .integer), ("number", .double), ("integer", .integer): true
        case ("integer", .double(let double)): double.isFinite && double == double.rounded()
        default: false
        }
    }

    /// JSON Schema's equality: numbers by value (`1` equals `1.0`), strings by code points,
    /// arrays element by element, objects field by field.
    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { equal(value, $0) } ?? false }
        default:
            guard left.number != nil, right.number != nil else { return false }
            return compareNumbers(left, right) == 0
        }
    }

    /// Compares two numbers: exactly when both are integers, as doubles otherwise.
    static func compareNumbers(_ left: JSONValue, _ right: JSONValue) -> Int {
        if case .integer(let a) = left, case .integer(let b) = right { return a == b ? 0 : (a < b ? -1 : 1) }
        let (a, b) = (left.number!, right.number!)
        return a == b ? 0 : (a < b ? -1 : 1)
    }

    static func isMultiple(_ value: JSONValue, of divisor: JSONValue) -> Bool {
        if case .integer(let a) = value, case .integer(let b) = divisor { return a % b == 0 }
        let quotient = value.number! / divisor.number!
        guard quotient.isFinite else { return false }
        return abs(quotient - quotient.rounded()) <= 1e-9 * Swift.max(1, abs(quotient))
    }

    static func short(_ value: JSONValue) -> String {
        let text = value.inlineText
        return text.count > 60 ? String(text.prefix(60)) + "…" : text
    }
}

extension SchemaValidator {
    /// The keywords the validator reads.
    enum Keyword: Int, CaseIterable {
        case ref
        case additionalProperties
        case allOf
        case anyOf
        case constant
        case contains
        case dependentRequired
        case dependentSchemas
        case elseSchema
        case enumeration
        case ifSchema
        case items
        case maxContains
        case maxItems
        case maxLength
        case maxProperties
        case minContains
        case minItems
        case minLength
        case minProperties
        case multipleOf
        case not
        case oneOf
        case pattern
        case patternProperties
        case prefixItems
        case properties
        case propertyNames
        case required
        case thenSchema
        case type
        case uniqueItems
        case minimum
        case exclusiveMinimum
        case maximum
        case exclusiveMaximum

        /// The keyword as a schema writes it.
        var name: String { Self.names[rawValue] }

        private static let names = [
            "$ref", "additionalProperties", "allOf", "anyOf", "const", "contains",
            "dependentRequired", "dependentSchemas", "else", "enum", "if", "items", "maxContains",
            "maxItems", "maxLength", "maxProperties", "minContains", "minItems", "minLength",
            "minProperties", "multipleOf", "not", "oneOf", "pattern", "patternProperties",
            "prefixItems", "properties", "propertyNames", "required", "then", "type",
            "uniqueItems", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum",
        ]
        /// The keyword a schema's field names, if it is one the validator reads.
        init?(name: String) {
            // Most names of a schema's fields are keywords. The length and the last byte leave
            // one or two candidates, compared as bytes: keywords are ASCII, and no other
            // spelling of one is equal to it as Swift compares strings.
            let length = name.utf8.count
            guard length < Self.byLengthAndLast.count, let last = name.utf8.last,
                let found = Self.byLengthAndLast[length][Int(last & 0x1F)].first(where: { JSONObject.sameBytes($0.name, name) })
            else { return nil }
            self = found
        }

        /// The keywords by the length of their name, then by its last byte (its low five bits:
        /// every keyword ends in a letter).
        private static let byLengthAndLast: [[[Keyword]]] = {
            let longest = allCases.map(\.name.utf8.count).max()!
            var table = [[[Keyword]]](repeating: [[Keyword]](repeating: [], count: 32), count: longest + 1)
            for keyword in allCases {
                table[keyword.name.utf8.count][Int(keyword.name.utf8.last! & 0x1F)].append(keyword)
            }
            return table
        }()
    }

    /// The numeric bounds, and what the comparison of an instance with each must give.
    static let bounds: [(Keyword, @Sendable (Int) -> Bool)] = [
        (.minimum, { $0 >= 0 }), (.exclusiveMinimum, { $0 > 0 }), (.maximum, { $0 <= 0 }), (.exclusiveMaximum, { $0 < 0 }),
    ]
}
