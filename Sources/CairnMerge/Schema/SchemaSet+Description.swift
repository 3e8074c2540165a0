extension SchemaSet {
    /// What the set says, kind by kind (sorted by path): the path pattern, the file, when a
    /// write is checkpointed and how many documents a collection keeps (not for content), the rules for IDs,
    /// the content its documents answer (when pinned), the
    /// policy tree (one line per value with a policy of its own, `*` for a map's entries),
    /// and the derived fields with what each computes. `cairn schema show` prints it.
    public func description(named name: String) -> String {
        var lines = [
            "\(name): \(kinds.count) kind\(kinds.count == 1 ? "" : "s") of document, version \(migrations.version)"
                + (contentCollection.map { ", shared content of the collection \($0)" } ?? "")
        ]
        for kind in sortedKinds {
            lines.append("")
            lines.append(kind.pattern.description)
            lines.append("  file: \(kind.file)")
            // Content is published with git, never checkpointed or pruned on a device.
            if !isContent {
                lines.append("  checkpoint: " + (kind.checkpoint.map(Self.text) ?? Self.text(.standard) + " (the default)"))
                lines.append("  retention: " + (kind.retention.map { "keep the latest \($0.keep) by \($0.by)" } ?? "keep all"))
            }
            if kind.ids.isEmpty {
                lines.append("  ids: any valid ID")
            } else {
                lines.append("  ids:")
                for (placeholder, schema) in kind.ids.sorted(by: { $0.key < $1.key }) {
                    lines.append("    {\(placeholder)}: \(schema.root.inlineText)")
                }
            }
            if let pin = kind.pin {
                lines.append("  pins: \(pin.collection), the item in \(pin.itemPointer), the version in \(pin.versionPointer)")
            }
            if !kind.assets.isEmpty {
                lines.append(
                    "  assets: "
                        + kind.assets.values.sorted { $0.name < $1.name }.map { field in
                            field.name + (field.maxBytes.map { " (at most \($0) bytes)" } ?? " (the store's limit)")
                        }.joined(separator: ", "))
            }
            lines.append("  policy: \(kind.policy.name)")
            Self.policyLines(kind.policy, indent: "    ", into: &lines)
            let computed = Self.computed(kind)
            if !computed.isEmpty {
                lines.append("  derived:")
                for (field, what) in computed { lines.append("    \(field): \(what.text)") }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The same as one JSON object: `name`, `version`, `content` (the collection of a content
    /// set, else null) and `kinds`, each kind with `path`,
    /// `file`, `checkpoint` (in the annotation's form) and `checkpointDeclared`, `retention`
    /// (null: keep all), `ids` (a schema per placeholder), `pins` (the `x-cairn.pins` annotation,
    /// null when the kind pins nothing), `assets` (the `x-cairn.assets` annotation), `policy`
    /// (a tree of `policy`, with
    /// `fields` by key and a map's `entries`) and `derived` (per field its `derive`
    /// annotation and the `computes` sentence).
    public func jsonDescription(named name: String) -> JSONValue {
        .object([
            "name": .string(name),
            "version": .integer(Int64(migrations.version)),
            "content": contentCollection.map(JSONValue.string) ?? .null,
            "kinds": .array(
                sortedKinds.map { kind in
                    .object([
                        "path": .string(kind.pattern.description),
                        "file": .string(kind.file),
                        "checkpoint": Self.json(kind.checkpoint ?? .standard),
                        "checkpointDeclared": .bool(kind.checkpoint != nil),
                        "retention": kind.retention.map { .object(["keep": .integer(Int64($0.keep)), "by": .string($0.by)]) } ?? .null,
                        "ids": .object(JSONObject(kind.ids.mapValues(\.root))),
                        "pins": kind.pin?.annotation ?? .null,
                        "assets": .object(
                            JSONObject(
                                kind.assets.mapValues { field in
                                    .object(field.maxBytes.map { ["maxBytes": .integer($0)] } ?? [:])
                                })),
                        "policy": Self.json(kind.policy),
                        "derived": .object(
                            JSONObject(
                                uniqueKeysWithValues: Self.computed(kind).map { field, what -> (String, JSONValue) in
                                    (field, JSONValue.object(["derive": what.annotation, "computes": .string(what.text)]))
                                })),
                    ])
                }),
        ])
    }

    private var sortedKinds: [Kind] {
        kinds.sorted { $0.pattern.description.utf8.lexicographicallyPrecedes($1.pattern.description.utf8) }
    }

    /// One line per child with a policy of its own, below it those of its own children.
    private static func policyLines(_ policy: MergePolicy, indent: String, into lines: inout [String]) {
        for (key, child) in policy.children.sorted(by: { $0.key < $1.key }) {
            lines.append("\(indent)\(key): \(child.name)")
            policyLines(child, indent: indent + "  ", into: &lines)
        }
        if case .fields(_, let others?) = policy {
            lines.append("\(indent)*: \(others.name)")
            policyLines(others, indent: indent + "  ", into: &lines)
        }
    }

    private static func json(_ policy: MergePolicy) -> JSONValue {
        var fields: JSONObject = ["policy": .string(policy.name.rawValue)]
        if !policy.children.isEmpty { fields["fields"] = .object(JSONObject(policy.children.mapValues(json))) }
        if case .fields(_, let others?) = policy { fields["entries"] = json(others) }
        return .object(fields)
    }

    /// The derived and counted fields of a kind, sorted by name: the annotation and a sentence.
    private static func computed(_ kind: Kind) -> [(String, (annotation: JSONValue, text: String))] {
        func filter(_ fields: JSONObject) -> String {
            fields.isEmpty
                ? ""
                : " where " + fields.sorted { $0.key < $1.key }.map { "\($0.key) is \($0.value.inlineText)" }.joined(separator: " and ")
        }
        func annotation(_ fields: JSONObject, where filter: JSONObject) -> JSONValue {
            .object(filter.isEmpty ? fields : fields.merging(["where": .object(filter)]) { $1 })
        }
        var result: [(String, (annotation: JSONValue, text: String))] = []
        for (field, derivation) in kind.derived {
            switch derivation {
            case .count(let map, let fields):
                result.append((field, (annotation(["count": .string(map)], where: fields), "how many entries of \(map)" + filter(fields))))
            case .latestKey(let map, let by, let fields):
                result.append(
                    (
                        field,
                        (
                            annotation(["latestKey": .string(map), "by": .string(by)], where: fields),
                            "the key of the entry of \(map) with the greatest \(by)" + filter(fields) + " (null when none)"
                        )
                    ))
            case .ratio(let numerator, let denominator, let scale):
                let factor = scale == 1 ? "" : " × \(number(scale))"
                result.append(
                    (
                        field,
                        (
                            .object(["ratio": .array([.string(numerator), .string(denominator)]), "scale": json(scale)]),
                            "\(numerator) / \(denominator)\(factor) (0 when \(denominator) is 0)"
                        )
                    ))
            }
        }
        for (field, count) in kind.counted {
            let collection = count.collection.joined(separator: "/")
            result.append(
                (
                    field,
                    (
                        annotation(["countDocuments": .string(collection)], where: count.filter),
                        "how many documents of \(collection) below this one" + filter(count.filter)
                    )
                ))
        }
        return result.sorted { $0.0 < $1.0 }
    }

    private static func text(_ policy: CheckpointPolicy) -> String {
        switch policy {
        case .immediate: "immediate"
        case .throttle(let seconds): "throttle \(number(seconds)) s"
        case .debounce(let seconds): "debounce \(number(seconds)) s"
        }
    }

    private static func json(_ policy: CheckpointPolicy) -> JSONValue {
        switch policy {
        case .immediate: .string("immediate")
        case .throttle(let seconds): .object(["throttle": json(seconds)])
        case .debounce(let seconds): .object(["debounce": json(seconds)])
        }
    }

    private static func json(_ number: Double) -> JSONValue {
        number == number.rounded() && abs(number) < 1e15 ? .integer(Int64(number)) : .double(number)
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
