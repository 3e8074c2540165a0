import CairnMerge

/// Valid random documents of a schema set, drawn from a seeded ``SplitMix``: the same seed
/// gives the same documents.
///
/// It reads the keywords the shipped sets use: `type` (one or several), `enum`, `const`,
/// numeric bounds (exclusive ones, `multipleOf`), `minLength`/`maxLength`,
/// `format: date-time`, `pattern` (the forms `PatternGenerator` reads), `required`,
/// `properties`, `additionalProperties` and `patternProperties` maps, `minProperties`,
/// arrays (`items`, `minItems`, `maxItems`, `uniqueItems`), `allOf` (with `if`/`then`/`else`),
/// `anyOf`, `oneOf` and `$ref` within the schema. Paths come from the `x-cairn.path` patterns,
/// their IDs from `x-cairn.ids` or the ID rules; derived fields are computed by
/// ``SchemaSet/Kind/filled(_:documents:)``. Every document is checked against its kind
/// (``SchemaSet/Kind/validate(_:at:)``) before it is returned; one that cannot be made valid
/// is a ``GenerationError``, and so is a schema whose bounds no document honours or whose
/// documents would be huge (`GenerationBudget`): it never traps, hangs or returns a
/// document its schema refuses.
///
/// Values are small and drawn from few choices (short words, keys `s0`…`s4` in a map of
/// `sections`), so documents made on two devices collide and merges have work to do. Time
/// stamps are ``GeneratedTime``'s.
public struct DocumentGenerator: Sendable {
    public let set: SchemaSet
    /// The user the paths belong to.
    public let uid: String

    /// Attempts at a valid document before giving up.
    static let attempts = 40

    public init(set: SchemaSet, uid: String = "u1") {
        self.set = set
        self.uid = uid
    }

    /// A path of `kind`: the placeholders in `ids` take those IDs, `{uid}` the generator's
    /// user, the others IDs drawn from their `x-cairn.ids` schema, else `fresh` ones (8 random
    /// characters, so unlikely to meet) or ones from a few per collection (`b0`…`b3`, so
    /// devices meet on them).
    public func path(
        of kind: SchemaSet.Kind, ids: [String: String] = [:], fresh: Bool = false,
        using random: inout SplitMix
    ) throws(GenerationError) -> DocumentPath {
        var values = ids
        values[kind.pattern.placeholders.first ?? "uid"] = uid
        for name in kind.pattern.placeholders where values[name] == nil {
            values[name] = try id(for: name, of: kind, fresh: fresh, using: &random)
        }
        guard let path = kind.pattern.fill(values) else {
            throw GenerationError(
                file: kind.file, pointer: "/x-cairn/path",
                reason:
                    "\(kind.pattern) with \(values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")) is not a document path"
            )
        }
        return path
    }

    /// An ID for the placeholder `name` of `kind`.
    public func id(for name: String, of kind: SchemaSet.Kind, fresh: Bool, using random: inout SplitMix) throws(GenerationError) -> String {
        if let schema = kind.ids[name] {
            for _ in 0..<Self.attempts {
                let context = GenerationContext(generator: self, kind: kind, root: schema.root, captures: [:], time: nil)
                let value = try context.value(schema.root, pointer: "/x-cairn/ids/\(name)", key: name, using: &random)
                if case .string(let id) = value, schema.accepts(value), (try? DocumentID.validate(id, in: id)) != nil {
                    return id
                }
            }
            throw GenerationError(file: kind.file, pointer: "/x-cairn/ids/\(name)", reason: "no valid ID for {\(name)} could be generated")
        }
        let prefix = Self.prefix(of: name)
        if fresh {
            let alphabet = Array("abcdefghijkmnpqrstuvwxyz23456789")
            return prefix + "-" + String((0..<8).map { _ in alphabet.randomElement(using: &random)! })
        }
        return prefix + String(Int.random(in: 0..<4, using: &random))
    }

    /// The first letter of a name, lowercased (`bookId` → `b`), for IDs and map keys.
    static func prefix(of name: String) -> String {
        guard let first = name.unicodeScalars.first(where: { ("a"..."z").contains($0) || ("A"..."Z").contains($0) }) else { return "k" }
        return String(Character(first)).lowercased()
    }

    /// A valid document of `kind` at `path`. With `time` (a step of a simulation), the time
    /// stamps its policies compare (`lww`, `highest`'s `then`, `entries`' `by`) are that
    /// step's (``GeneratedTime``), so no two steps write equal stamps; `documents` gives the
    /// documents its counts count (none without).
    public func document(
        of kind: SchemaSet.Kind, at path: DocumentPath, time: Int64? = nil,
        documents: ((DocumentCount) -> [JSONValue])? = nil,
        using random: inout SplitMix
    ) throws(GenerationError) -> JSONValue {
        var last: ValidationError?
        for _ in 0..<Self.attempts {
            // Each attempt with a budget of its own.
            let context = GenerationContext(
                generator: self, kind: kind, root: kind.schema.root,
                captures: kind.pattern.match(path) ?? [:], time: time)
            let drawn = try context.value(kind.schema.root, pointer: "", key: nil, policy: kind.policy, top: true, using: &random)
            let document = kind.filled(drawn, documents: documents ?? { _ in [] })
            let errors = kind.validate(document, at: path)
            if errors.isEmpty {
                // A store reads no document larger than this.
                let size = document.canonicalBytes().count
                guard size <= JSONLimits.documents.maxBytes else {
                    throw GenerationError(
                        file: kind.file, pointer: "",
                        reason: "a document drawn is \(size) bytes; a store holds documents up to \(JSONLimits.documents.maxBytes)")
                }
                return document
            }
            last = errors.first
        }
        throw GenerationError(
            file: kind.file, pointer: last?.schemaPath ?? "",
            reason:
                "no valid document after \(Self.attempts) attempts; the last broke \(last.map(String.init(describing:)) ?? "its schema")")
    }

    /// What cannot be generated in the set: one error per kind whose paths or documents
    /// cannot be made; [] when every kind can.
    public func unsupported() -> [GenerationError] {
        var errors: [GenerationError] = []
        for (index, kind) in set.kinds.enumerated() {
            var random = SplitMix(seed: UInt64(index))
            do {
                for _ in 0..<3 {
                    let path = try path(of: kind, fresh: true, using: &random)
                    _ = try document(of: kind, at: path, using: &random)
                }
            } catch {
                errors.append(error)
            }
        }
        return errors
    }
}
