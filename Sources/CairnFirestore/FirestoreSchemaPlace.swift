import CairnCore
import CairnMerge

/// The subschemas of a kind's schema that describe one place of its documents (the whole
/// document, a field, an element), and the Firestore type they give a value there.
///
/// Read through `$ref` (within the schema), `allOf`, the branches of `anyOf`, `oneOf` and
/// `if`/`then`/`else` whose declared `type` admits the value, `properties`,
/// `patternProperties`, `additionalProperties`, `prefixItems` and `items`.
struct FirestoreSchemaPlace {
    /// The kind's schema, which `$ref` points into.
    let root: JSONValue
    /// The schemas declared for the place, before `$ref` and the combinators are followed.
    var schemas: [JSONValue]

    /// The top of a document of a kind with schema `root`; nil (no kind): a place no schema describes.
    init(root: JSONValue?) {
        self.root = root ?? .bool(true)
        schemas = root.map { [$0] } ?? []
    }

    private init(root: JSONValue, schemas: [JSONValue]) {
        self.root = root
        self.schemas = schemas
    }

    /// The schemas that apply to a value of JSON type `type` here (`integer`, `number`,
    /// `string`, …), each an object.
    func applying(to type: String) -> [JSONValue] {
        var found: [JSONValue] = []
        for schema in schemas { expand(schema, type: type, depth: 0, into: &found) }
        return found
    }

    private func expand(_ schema: JSONValue, type: String, depth: Int, into found: inout [JSONValue]) {
        guard depth < 64, case .object(let keywords) = schema, Self.admits(schema, type) else { return }
        found.append(schema)
        if case .string(let reference)? = keywords["$ref"], let target = resolve(reference) {
            expand(target, type: type, depth: depth + 1, into: &found)
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            guard case .array(let branches)? = keywords[key] else { continue }
            for branch in branches { expand(branch, type: type, depth: depth + 1, into: &found) }
        }
        for key in ["then", "else"] {
            if let branch = keywords[key] { expand(branch, type: type, depth: depth + 1, into: &found) }
        }
    }

    /// Whether a schema's `type` (when it declares one) admits values of JSON type `type`.
    static func admits(_ schema: JSONValue, _ type: String) -> Bool {
        guard let declared = declaredTypes(schema) else { return true }
        return declared.contains(type) || (type == "integer" && declared.contains("number"))
    }

    /// The types a schema's `type` keyword names; nil without one.
    static func declaredTypes(_ schema: JSONValue) -> Set<String>? {
        switch schema.field("type") {
        case .string(let name)?: [name]
        case .array(let names)?: Set(names.compactMap { if case .string(let name) = $0 { name } else { nil } })
        default: nil
        }
    }

    /// The schema a `$ref` within the schema points to (`#`, `#/$defs/…`); nil for others.
    private func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        var node = root
        for token in reference.dropFirst().split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = Self.unescape(token)
            switch node {
            case .object(let object):
                guard let child = object[key] else { return nil }
                node = child
            case .array(let array):
                guard let index = Int(key), array.indices.contains(index) else { return nil }
                node = array[index]
            default:
                return nil
            }
        }
        return node
    }

    /// A JSON pointer's token as the key it names (`~1` is `/`, `~0` is `~`).
    static func unescape(_ token: Substring) -> String {
        guard token.contains("~") else { return String(token) }
        var key = ""
        var escaped = false
        for character in token {
            if escaped {
                key.append(character == "1" ? "/" : character == "0" ? "~" : character)
                escaped = false
            } else if character == "~" {
                escaped = true
            } else {
                key.append(character)
            }
        }
        return key
    }

    /// The place of the field `key` of an object described by `applying`.
    func field(_ key: String, of applying: [JSONValue]) -> FirestoreSchemaPlace {
        var children: [JSONValue] = []
        for schema in applying {
            var matched = false
            if let declared = schema.field("properties")?.field(key) {
                children.append(declared)
                matched = true
            }
            if case .object(let patterns)? = schema.field("patternProperties") {
                for (pattern, child) in patterns where (try? Regex(pattern)).map({ key.contains($0) }) == true {
                    children.append(child)
                    matched = true
                }
            }
            if !matched, let additional = schema.field("additionalProperties") {
                children.append(additional)
            }
        }
        return FirestoreSchemaPlace(root: root, schemas: children)
    }

    /// The place of the element at `index` of an array described by `applying`.
    func element(_ index: Int, of applying: [JSONValue]) -> FirestoreSchemaPlace {
        var children: [JSONValue] = []
        for schema in applying {
            let prefix: [JSONValue]
            switch (schema.field("prefixItems"), schema.field("items")) {
            case (.array(let items)?, _), (nil, .array(let items)?): prefix = items
            default: prefix = []
            }
            if index < prefix.count {
                children.append(prefix[index])
            } else if let items = schema.field("items"), case .object = items {
                children.append(items)
            } else if let additional = schema.field("additionalItems"), case .object = additional {
                children.append(additional)
            }
        }
        return FirestoreSchemaPlace(root: root, schemas: children)
    }

    /// The Firestore type the schemas in `applying` give a value of JSON type `type`: an
    /// `x-firestore` annotation first; else a string with `"format": "date-time"` is a
    /// timestamp, and a number is an integer where a schema declares integers only; nil where
    /// nothing says (a number's literal then decides).
    static func firestoreType(_ applying: [JSONValue], jsonType type: String) -> FirestoreType? {
        for schema in applying {
            if case .string(let word)? = schema.field(FirestoreType.keyword), let declared = FirestoreType(rawValue: word),
                declared.jsonTypes.contains(type)
            {
                return declared
            }
        }
        switch type {
        case "string":
            return applying.contains { $0.field("format") == .string("date-time") } ? .timestamp : nil
        case "integer", "number":
            let declared = applying.compactMap(declaredTypes)
            // `"type": "number"` says nothing of Firestore's two kinds of number: the literal
            // does (an integer's `integerValue` comes back an integer, a double's `doubleValue`
            // a double), so a file's numbers go out again as they came in.
            if declared.contains(where: { $0.contains("integer") && !$0.contains("number") }) { return .integer }
            return nil
        default:
            return nil
        }
    }
}
