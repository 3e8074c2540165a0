/// The checking behind ``Schema/validate(_:)``: one pass over the instance, keyword by
/// keyword, with the schema's regular expressions compiled once.
struct SchemaValidator {
    let root: JSONValue
    private let patterns: SchemaPatterns
    /// Whether errors say where they are. A first pass without (nearly every document is
    /// valid) builds no path strings; a second one with them runs only for an invalid document.
    var tracksPaths = true

    /// `patterns`: the schema's compiled expressions, kept between checks (a new cache by default).
    init(root: JSONValue, patterns: SchemaPatterns = SchemaPatterns()) {
        self.root = root
        self.patterns = patterns
    }

    mutating func errors(_ instance: JSONValue, against schema: JSONValue, schemaPath: String,
                         instancePath: String, depth: Int) -> [ValidationError] {
        var found: [ValidationError] = []
        func fail(_ keyword: String, _ message: String) {
            found.append(ValidationError(pointer: instancePath, keyword: keyword,
                                         schemaPath: schemaPath + "/" + keyword, message: message))
        }
        switch schema {
        case .bool(true): return []
        case .bool(false):
            return [ValidationError(pointer: instancePath, keyword: "false", schemaPath: schemaPath,
                                    message: "no value is allowed here")]
        case .object: break
        default:
            return [ValidationError(pointer: instancePath, keyword: "schema", schemaPath: schemaPath,
                                    message: "the schema here is neither an object nor a boolean")]
        }
        guard depth < Schema.maxDepth else {
            return [ValidationError(pointer: instancePath, keyword: "$ref", schemaPath: schemaPath,
                                    message: "references nest deeper than \(Schema.maxDepth) levels; the schema loops")]
        }
        let keywords = schema.objectValue!
        // Where each keyword the schema has is among its fields, found in one walk of them: a
        // keyword is then read without a lookup, and an absent one costs nothing (a schema
        // node has a few of the forty). A slot holds the position plus one, 0 for absent.
        var slots = SIMD64<UInt8>()
        for position in keywords.indices {
            if let known = Keyword(name: keywords[position].key) {
                slots[known.rawValue] = position < Int(UInt8.max) - 1 ? UInt8(position + 1) : UInt8.max
            }
        }
        func keyword(_ known: Keyword) -> JSONValue? {
            switch slots[known.rawValue] {
            case 0: nil
            case UInt8.max: keywords[known.name]
            case let slot: keywords[Int(slot) - 1].value
            }
        }

        func sub(_ value: JSONValue, _ subschema: JSONValue, _ path: @autoclosure () -> String,
                 _ pointer: @autoclosure () -> String, depth extra: Int = 0) -> [ValidationError] {
            errors(value, against: subschema, schemaPath: tracksPaths ? path() : "",
                   instancePath: tracksPaths ? pointer() : "", depth: depth + extra)
        }
        func valid(_ value: JSONValue, _ subschema: JSONValue, _ path: @autoclosure () -> String) -> Bool {
            sub(value, subschema, path(), instancePath).isEmpty
        }

        if case .string(let reference)? = keyword(.ref) {
            if let target = resolve(reference) {
                found += sub(instance, target, schemaPath + "/$ref", instancePath, depth: 1)
            } else {
                fail("$ref", "reference \(reference) does not resolve within the schema")
            }
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
        if let number = instance.number {
            if let divisor = keyword(.multipleOf)?.number, divisor > 0, !Self.isMultiple(instance, of: keyword(.multipleOf)!) {
                fail("multipleOf", "must be a multiple of \(Self.short(.double(divisor)))")
            }
            for (bound, holds) in Self.bounds {
                if let limit = keyword(bound), limit.number != nil, !holds(Self.compareNumbers(instance, limit)) {
                    fail(bound.name, "is \(Self.short(instance)); \(bound.name) is \(Self.short(limit))")
                }
            }
            _ = number
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
            if case .array(let schemas)? = keyword(.prefixItems) {
                for (index, (element, itemSchema)) in zip(elements, schemas).enumerated() {
                    found += sub(element, itemSchema, schemaPath + "/prefixItems/\(index)", instancePath + "/\(index)")
                }
                prefix = schemas.count
            }
            if let itemSchema = keyword(.items) {
                for index in elements.indices where index >= prefix {
                    found += sub(elements[index], itemSchema, schemaPath + "/items", instancePath + "/\(index)")
                }
            }
            if let containsSchema = keyword(.contains) {
                let count = elements.filter { valid($0, containsSchema, schemaPath + "/contains") }.count
                let minimum = Self.count(keyword(.minContains)) ?? 1
                if count < minimum {
                    fail(keyword(.minContains) == nil ? "contains" : "minContains",
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
            if case .array(let names)? = keyword(.required) {
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
            let properties = keyword(.properties)?.objectValue ?? [:]
            let patternProperties = keyword(.patternProperties)?.objectValue ?? [:]
            let additional = keyword(.additionalProperties)
            let propertyNames = keyword(.propertyNames)
            // Fields in canonical order, the order errors are reported in.
            for (key, value) in fields {
                let pointer = tracksPaths ? instancePath + "/" + MergePolicy.escape(key) : ""
                var matched = false
                if let propertySchema = properties[key] {
                    matched = true
                    found += sub(value, propertySchema, schemaPath + "/properties/" + MergePolicy.escape(key), pointer)
                }
                for (pattern, patternSchema) in patternProperties where matches(key, pattern) == true {
                    matched = true
                    found += sub(value, patternSchema, schemaPath + "/patternProperties/" + MergePolicy.escape(pattern), pointer)
                }
                if !matched, let additional {
                    if additional == .bool(false) {
                        fail("additionalProperties", "has the field \"\(key)\", which the schema does not allow")
                    } else {
                        found += sub(value, additional, schemaPath + "/additionalProperties", pointer)
                    }
                }
                if let names = propertyNames, !valid(.string(key), names, schemaPath + "/propertyNames") {
                    fail("propertyNames", "has the field name \"\(key)\", which the schema does not allow")
                }
            }
            if case .object(let dependentSchemas)? = keyword(.dependentSchemas) {
                for key in JSONValue.sortedKeys(dependentSchemas) where fields[key] != nil {
                    found += sub(instance, dependentSchemas[key]!, schemaPath + "/dependentSchemas/" + MergePolicy.escape(key), instancePath)
                }
            }
        }

        // Combinations.
        if case .array(let schemas)? = keyword(.allOf) {
            for (index, subschema) in schemas.enumerated() {
                found += sub(instance, subschema, schemaPath + "/allOf/\(index)", instancePath)
            }
        }
        if case .array(let schemas)? = keyword(.anyOf),
           !schemas.indices.contains(where: { valid(instance, schemas[$0], schemaPath + "/anyOf/\($0)") }) {
            fail("anyOf", "matches none of the \(schemas.count) alternatives")
        }
        if case .array(let schemas)? = keyword(.oneOf) {
            let count = schemas.indices.filter { valid(instance, schemas[$0], schemaPath + "/oneOf/\($0)") }.count
            if count != 1 { fail("oneOf", "matches \(count) of the alternatives; exactly one must match") }
        }
        if let negated = keyword(.not), valid(instance, negated, schemaPath + "/not") {
            fail("not", "matches a schema it must not match")
        }
        if let condition = keyword(.ifSchema) {
            if valid(instance, condition, schemaPath + "/if") {
                if let then = keyword(.thenSchema) { found += sub(instance, then, schemaPath + "/then", instancePath) }
            } else if let otherwise = keyword(.elseSchema) {
                found += sub(instance, otherwise, schemaPath + "/else", instancePath)
            }
        }
        return found
    }

    /// The subschema a local reference names: `#` or `#` and a JSON pointer.
    func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        var target = root
        let pointer = String(reference.dropFirst())
        guard !pointer.isEmpty else { return target }
        guard pointer.hasPrefix("/") else { return nil }
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = Self.percentDecoded(String(raw)) else { return nil }
            let token = decoded.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch target {
            case .object(let fields):
                guard let next = fields[token] else { return nil }
                target = next
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                target = elements[index]
            default:
                return nil
            }
        }
        return target
    }

    /// Whether `text` contains a match of `pattern` (ECMA-262 patterns are not anchored);
    /// nil when the pattern cannot be compiled.
    func matches(_ text: String, _ pattern: String) -> Bool? {
        patterns.matches(text, pattern)
    }

    /// A count limit (`minItems`, `maxLength`, …): an integer, written `2` or `2.0`.
    static func count(_ value: JSONValue?) -> Int64? {
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

    static func percentDecoded(_ text: String) -> String? {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next(), let low = iterator.next(),
                      let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
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
