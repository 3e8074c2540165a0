/// A schema read once into the nodes a check walks (``SchemaNode``). Each subschema the
/// validator can reach, from the root through its keywords and local `$ref`s, is compiled
/// once however often it is reached: nodes are kept by their place in the schema (its JSON
/// pointer, spelled one way), so a reference to a place compiled before, or a loop of
/// references, costs no new node, and a schema's size bounds the work whatever it refers to.
struct CompiledSchema: Sendable {
    /// The nodes; the root is the first.
    let nodes: [SchemaNode]

    init(_ root: JSONValue) {
        var builder = Builder(root: root)
        _ = builder.node(root, at: [])
        nodes = builder.nodes
    }

    /// `subschema`, a value that need not be found in `root` (a schema a generator put
    /// together), as the first node, its `$ref`s resolved in `root`.
    init(_ subschema: JSONValue, within root: JSONValue) {
        var builder = Builder(root: root)
        _ = builder.node(subschema, at: nil)
        nodes = builder.nodes
    }

    private struct Builder {
        let root: JSONValue
        var nodes: [SchemaNode] = []
        /// Each place compiled, by its pointer's tokens as the schema spells its keys.
        var compiled: [[String]: Int] = [:]

        init(root: JSONValue) {
            self.root = root
        }

        /// The node of `schema`, found at `pointer` in the schema (nil: found nowhere in it,
        /// nor what it holds, so compiled anew).
        mutating func node(_ schema: JSONValue, at pointer: [String]?) -> Int {
            if let pointer, let known = compiled[pointer] { return known }
            let index = nodes.count
            if let pointer { compiled[pointer] = index }
            guard case .object(let keywords) = schema else {
                nodes.append(SchemaNode(form: schema == .bool(true) ? .accepting : schema == .bool(false) ? .rejecting : .malformed))
                return index
            }
            // Reserved first: a reference back to this place, met below, finds it.
            nodes.append(SchemaNode(form: .keywords))
            var values = [JSONValue?](repeating: nil, count: SchemaValidator.Keyword.allCases.count)
            for (name, value) in keywords {
                if let known = SchemaValidator.Keyword(name: name) { values[known.rawValue] = value }
            }
            func value(_ keyword: SchemaValidator.Keyword) -> JSONValue? { values[keyword.rawValue] }
            var reference: SchemaNode.Reference?
            if case .string(let text)? = value(.ref) {
                reference = CompiledSchema.resolve(text, in: root).map { .node(node($0.target, at: $0.pointer)) } ?? .unresolved(text)
            }
            var properties = JSONObject()
            if case .object(let declared)? = value(.properties) {
                for (name, schema) in declared {
                    properties[name] = .integer(Int64(node(schema, at: pointer.map { $0 + ["properties", name] })))
                }
            }
            var patternProperties: [(pattern: String, node: Int)] = []
            if case .object(let patterns)? = value(.patternProperties) {
                for (pattern, schema) in patterns {
                    patternProperties.append((pattern, node(schema, at: pointer.map { $0 + ["patternProperties", pattern] })))
                }
            }
            var dependentSchemas: [(key: String, node: Int)] = []
            if case .object(let dependent)? = value(.dependentSchemas) {
                for (key, schema) in dependent {
                    dependentSchemas.append((key, node(schema, at: pointer.map { $0 + ["dependentSchemas", key] })))
                }
            }
            var requiredInOrder: [String]?
            if case .array(let names)? = value(.required) {
                let strings = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
                if strings.count == names.count, strings.allSatisfy(JSONObject.isASCII) {
                    requiredInOrder = Array(Set(strings)).sorted(by: JSONObject.precedes)
                }
            }
            nodes[index] = SchemaNode(
                form: .keywords, values: values, reference: reference, properties: properties, requiredInOrder: requiredInOrder,
                patternProperties: patternProperties, dependentSchemas: dependentSchemas,
                additionalProperties: child(value(.additionalProperties), .additionalProperties, below: pointer),
                propertyNames: child(value(.propertyNames), .propertyNames, below: pointer),
                items: child(value(.items), .items, below: pointer),
                prefixItems: list(value(.prefixItems), .prefixItems, below: pointer),
                contains: child(value(.contains), .contains, below: pointer),
                allOf: list(value(.allOf), .allOf, below: pointer),
                anyOf: list(value(.anyOf), .anyOf, below: pointer),
                oneOf: list(value(.oneOf), .oneOf, below: pointer),
                not: child(value(.not), .not, below: pointer),
                ifSchema: child(value(.ifSchema), .ifSchema, below: pointer),
                thenSchema: child(value(.thenSchema), .thenSchema, below: pointer),
                elseSchema: child(value(.elseSchema), .elseSchema, below: pointer))
            return index
        }

        /// The node of a keyword that holds one subschema (any value: one that is no schema
        /// is a malformed node, as the check reports it).
        private mutating func child(_ value: JSONValue?, _ keyword: SchemaValidator.Keyword, below pointer: [String]?) -> Int? {
            value.map { node($0, at: pointer.map { $0 + [keyword.name] }) }
        }

        /// The nodes of a keyword that holds an array of subschemas; nil when its value is no array.
        private mutating func list(_ value: JSONValue?, _ keyword: SchemaValidator.Keyword, below pointer: [String]?) -> [Int]? {
            guard case .array(let schemas)? = value else { return nil }
            return schemas.indices.map { index in node(schemas[index], at: pointer.map { $0 + [keyword.name, String(index)] }) }
        }
    }

    /// The subschema a local reference names within `root` (`#`, or `#` and a JSON pointer,
    /// whose tokens may be percent-encoded), and its place spelled as the schema spells it.
    static func resolve(_ reference: String, in root: JSONValue) -> (target: JSONValue, pointer: [String])? {
        guard reference.hasPrefix("#") else { return nil }
        var target = root
        var place: [String] = []
        let pointer = String(reference.dropFirst())
        guard !pointer.isEmpty else { return (target, place) }
        guard pointer.hasPrefix("/") else { return nil }
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = Self.percentDecoded(String(raw)) else { return nil }
            let token = decoded.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch target {
            case .object(let fields):
                guard let key = fields.storedKey(for: token), let next = fields[key] else { return nil }
                (target, place) = (next, place + [key])
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                (target, place) = (elements[index], place + [String(index)])
            default:
                return nil
            }
        }
        return (target, place)
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
}
