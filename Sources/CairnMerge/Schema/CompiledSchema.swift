/// A schema read once into the nodes a check walks (``SchemaNode``). Each subschema the
/// validator can reach, from the root through its keywords and local `$ref`s, is compiled
/// once however often it is reached: nodes are kept by their place in the schema (its JSON
/// pointer, spelled one way), so a reference to a place compiled before, or a loop of
/// references, costs no new node, and a schema's size bounds the work whatever it refers to.
/// A reference's target is compiled after the place that refers to it, not inside it, so a
/// chain of references as long as the schema can hold costs no deeper recursion than its
/// nesting. `true`, `false`, `{}` and values that are no schema share one node each.
package struct CompiledSchema: Sendable {
    /// The nodes.
    let nodes: [SchemaNode]
    /// The node checks start from.
    let root: Int

    init(_ root: JSONValue) {
        var builder = Builder(root: root)
        self.root = builder.compile(root, at: "")
        nodes = builder.nodes
    }

    /// `subschema`, a value that need not be found in `root` (a schema a generator put
    /// together), as the node checks start from, its `$ref`s resolved in `root`.
    package init(_ subschema: JSONValue, within root: JSONValue) {
        var builder = Builder(root: root)
        self.root = builder.compile(subschema, at: nil)
        nodes = builder.nodes
    }

    private struct Builder {
        static let accepting = 0, rejecting = 1, malformed = 2, empty = 3

        let root: JSONValue
        var nodes = [
            SchemaNode(form: .accepting), SchemaNode(form: .rejecting), SchemaNode(form: .malformed),
            SchemaNode(form: .keywords),
        ]
        /// Each place compiled (or waiting to be), by its JSON pointer as the schema spells its keys.
        var compiled: [String: Int] = [:]
        /// The targets of references met, reserved and not compiled yet.
        var waiting: [(schema: JSONValue, pointer: String, index: Int)] = []

        init(root: JSONValue) {
            self.root = root
        }

        /// Compiles `schema`, found at `pointer` (nil: found nowhere in the root), and every
        /// place it refers to; its node.
        mutating func compile(_ schema: JSONValue, at pointer: String?) -> Int {
            let start = node(schema, at: pointer)
            while let next = waiting.popLast() {
                nodes[next.index] = keywordsNode(next.schema.objectValue ?? JSONObject(), at: next.pointer)
            }
            return start
        }

        /// The node of a schema that needs none of its own, if `schema` is one.
        private func shared(_ schema: JSONValue) -> Int? {
            switch schema {
            case .bool(true): Self.accepting
            case .bool(false): Self.rejecting
            case .object(let keywords): keywords.isEmpty ? Self.empty : nil
            default: Self.malformed
            }
        }

        /// The node of `schema`, found at `pointer` (nil: found nowhere in the root, nor what
        /// it holds, so compiled anew), compiled now with what it holds.
        private mutating func node(_ schema: JSONValue, at pointer: String?) -> Int {
            if let index = shared(schema) { return index }
            if let pointer, let known = compiled[pointer] { return known }
            let index = nodes.count
            // Reserved first: a reference back to this place, met below, finds it.
            nodes.append(nodes[Self.empty])
            if let pointer { compiled[pointer] = index }
            nodes[index] = keywordsNode(schema.objectValue ?? JSONObject(), at: pointer)
            return index
        }

        /// The node of a reference's target at `pointer`: reserved now, compiled later.
        private mutating func referenced(_ schema: JSONValue, at pointer: String) -> Int {
            if let index = shared(schema) { return index }
            if let known = compiled[pointer] { return known }
            let index = nodes.count
            nodes.append(nodes[Self.empty])
            compiled[pointer] = index
            waiting.append((schema, pointer, index))
            return index
        }

        private mutating func keywordsNode(_ keywords: JSONObject, at pointer: String?) -> SchemaNode {
            var found: [(SchemaValidator.Keyword, JSONValue)] = []
            for (name, value) in keywords {
                if let known = SchemaValidator.Keyword(name: name) { found.append((known, value)) }
            }
            found.sort { $0.0.rawValue < $1.0.rawValue }
            func value(_ keyword: SchemaValidator.Keyword) -> JSONValue? {
                found.first { $0.0 == keyword }?.1
            }
            func below(_ tokens: String...) -> String? {
                pointer.map { tokens.reduce($0) { $0 + "/" + CompiledSchema.escaped($1) } }
            }
            var reference: SchemaNode.Reference?
            if case .string(let text)? = value(.ref) {
                reference = CompiledSchema.resolve(text, in: root).map { .node(referenced($0.target, at: $0.pointer)) } ?? .unresolved(text)
            }
            var properties = JSONObject()
            if case .object(let declared)? = value(.properties) {
                for (name, schema) in declared {
                    properties[name] = .integer(Int64(node(schema, at: below("properties", name))))
                }
            }
            var patternProperties: [(pattern: String, node: Int)] = []
            if case .object(let patterns)? = value(.patternProperties) {
                for (pattern, schema) in patterns {
                    patternProperties.append((pattern, node(schema, at: below("patternProperties", pattern))))
                }
            }
            var dependentSchemas: [(key: String, node: Int)] = []
            if case .object(let dependent)? = value(.dependentSchemas) {
                for (key, schema) in dependent {
                    dependentSchemas.append((key, node(schema, at: below("dependentSchemas", key))))
                }
            }
            var requiredInOrder: [String]?
            if case .array(let names)? = value(.required) {
                let strings = names.compactMap { if case .string(let name) = $0 { name } else { nil } }
                if strings.count == names.count, strings.allSatisfy(JSONObject.isASCII) {
                    requiredInOrder = Array(Set(strings)).sorted(by: JSONObject.precedes)
                }
            }
            func child(_ keyword: SchemaValidator.Keyword) -> Int? {
                value(keyword).map { node($0, at: below(keyword.name)) }
            }
            func list(_ keyword: SchemaValidator.Keyword) -> [Int]? {
                guard case .array(let schemas)? = value(keyword) else { return nil }
                return schemas.indices.map { node(schemas[$0], at: below(keyword.name, String($0))) }
            }
            return SchemaNode(
                form: .keywords, keywords: found, reference: reference, properties: properties, requiredInOrder: requiredInOrder,
                patternProperties: patternProperties, dependentSchemas: dependentSchemas,
                additionalProperties: child(.additionalProperties), propertyNames: child(.propertyNames),
                items: child(.items), prefixItems: list(.prefixItems), contains: child(.contains),
                allOf: list(.allOf), anyOf: list(.anyOf), oneOf: list(.oneOf), not: child(.not),
                ifSchema: child(.ifSchema), thenSchema: child(.thenSchema), elseSchema: child(.elseSchema))
        }
    }

    /// A key as a JSON pointer writes it (`~` as `~0`, `/` as `~1`).
    static func escaped(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// The subschema a local reference names within `root` (`#`, or `#` and a JSON pointer,
    /// whose tokens may be percent-encoded), and its place as a JSON pointer spelled as the
    /// schema spells its keys.
    package static func resolve(_ reference: String, in root: JSONValue) -> (target: JSONValue, pointer: String)? {
        guard reference.hasPrefix("#") else { return nil }
        var target = root
        var place = ""
        let pointer = String(reference.dropFirst())
        guard !pointer.isEmpty else { return (target, place) }
        guard pointer.hasPrefix("/") else { return nil }
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = Self.percentDecoded(String(raw)) else { return nil }
            let token = decoded.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch target {
            case .object(let fields):
                guard let key = fields.storedKey(for: token), let next = fields[key] else { return nil }
                (target, place) = (next, place + "/" + escaped(key))
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                (target, place) = (elements[index], place + "/" + String(index))
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
                    let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
                else { return nil }
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
