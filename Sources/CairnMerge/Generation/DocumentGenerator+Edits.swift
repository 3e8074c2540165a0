extension DocumentGenerator {
    /// A place in a document an edit can change, and how its policy wants it changed.
    struct EditSite {
        enum Change {
            case counter
            case extreme(max: Bool)
            case union
            /// Write one entry of an `entries` map stamped by `by`.
            case entry(by: String)
            /// Draw the value again (under `lww`, `highest` or `fields`); `policy`: its own.
            case redraw(MergePolicy)
        }

        var change: Change
        /// Where, as keys from the document's top.
        var tokens: [String]
        var schema: JSONValue
        /// The `lww` and `highest` objects around it, outermost first: their stamps are raised.
        var scopes: [(tokens: [String], policy: MergePolicy)]
    }

    /// `document` (of `kind`, at `path`) changed as a device would change it at step `time`
    /// (see ``DocumentEdit``); nil when its policy allows no edit (append-only) or nothing
    /// in it can change now (every bounded value at its bound, or the document already
    /// refused by its schema).
    public func edit(_ document: JSONValue, of kind: SchemaSet.Kind, at path: DocumentPath, time: Int64,
                     documents: ((DocumentCount) -> [JSONValue])? = nil,
                     using random: inout SplitMix) throws(GenerationError) -> DocumentEdit? {
        guard !kind.policy.isAppendOnly else { return nil }
        let context = Context(generator: self, kind: kind, root: kind.schema.root,
                              captures: kind.pattern.match(path) ?? [:], time: time)
        var sites: [EditSite] = []
        try context.sites(in: document, schema: kind.schema.root, policy: kind.policy, tokens: [], scopes: [],
                          top: true, into: &sites, using: &random)
        // An edit its schema refuses (a bound reached: a union at its maxItems) is not made;
        // when no site can change, there is no edit.
        for _ in 0..<Self.attempts where !sites.isEmpty {
            let index = Int.random(in: 0..<sites.count, using: &random)
            guard let (changed, changes) = try context.apply(sites[index], to: document, using: &random) else {
                sites.remove(at: index)
                continue
            }
            let filled = kind.filled(changed, documents: documents)
            let errors = kind.validate(filled, at: path)
            if errors.isEmpty, !JSONValue.same(filled, document) { return DocumentEdit(document: filled, changes: changes) }
        }
        return nil
    }
}

extension DocumentGenerator.Context {
    typealias EditSite = DocumentGenerator.EditSite

    /// The places of `value` (of `schema`, merged by `policy`) an edit can change.
    func sites(in value: JSONValue, schema: JSONValue, policy: MergePolicy, tokens: [String],
               scopes: [(tokens: [String], policy: MergePolicy)], top: Bool,
               into sites: inout [EditSite], using random: inout SplitMix) throws(GenerationError) {
        guard case .object(let fields) = value else { return }
        let (keywords, _) = try resolved(schema, pointer: "", using: &random)
        var scopes = scopes
        switch policy {
        case .lww, .highest: scopes.append((tokens, policy))
        default: break
        }
        let sidePicking = !policy.stampFields.isEmpty
        let properties = keywords["properties"]?.objectValue ?? [:]
        for name in JSONValue.sortedKeys(properties) {
            if top, kind.computedFields.contains(name) { continue }
            if policy.comparedFields.contains(name), policy.children[name] == nil { continue }
            let child = policy.children[name] ?? (sidePicking ? .plain : policy.entryPolicy ?? .plain)
            try site(for: fields[name], named: name, schema: properties[name]!, policy: child, tokens: tokens + [name],
                     scopes: scopes, into: &sites, using: &random)
        }
        // A map's entries, and a new one.
        let entrySchema = keywords["additionalProperties"] ?? keywords["patternProperties"]?.objectValue?.values.first
        guard let entrySchema, entrySchema != .bool(false) else { return }
        if case .entriesLatest(let by) = policy {
            sites.append(EditSite(change: .entry(by: by), tokens: tokens, schema: entrySchema, scopes: scopes))
            return
        }
        let entryPolicy = policy.entryPolicy ?? .plain
        for key in JSONValue.sortedKeys(fields) where properties[key] == nil {
            try site(for: fields[key], named: key, schema: entrySchema, policy: entryPolicy, tokens: tokens + [key],
                     scopes: scopes, into: &sites, using: &random)
        }
        let fresh = try mapKey(for: tokens.last, pattern: keywords["patternProperties"]?.objectValue?.keys.sorted().first,
                               pointer: "", using: &random)
        if fields[fresh] == nil, properties[fresh] == nil {
            sites.append(EditSite(change: .redraw(entryPolicy), tokens: tokens + [fresh], schema: entrySchema, scopes: scopes))
        }
    }

    /// The site of one value (absent: it can be added), by its policy.
    func site(for value: JSONValue?, named name: String, schema: JSONValue, policy: MergePolicy, tokens: [String],
              scopes: [(tokens: [String], policy: MergePolicy)], into sites: inout [EditSite],
              using random: inout SplitMix) throws(GenerationError) {
        // A value with a single allowed value cannot change.
        if case .object(let keywords) = schema, keywords["const"] != nil { return }
        switch policy {
        case .counter:
            sites.append(EditSite(change: .counter, tokens: tokens, schema: schema, scopes: scopes))
        case .max, .min:
            sites.append(EditSite(change: .extreme(max: policy == .max), tokens: tokens, schema: schema, scopes: scopes))
        case .union:
            sites.append(EditSite(change: .union, tokens: tokens, schema: schema, scopes: scopes))
        case .appendOnly, .appendOnlyLatest:
            return
        case .entriesLatest:
            if let value, case .object = value {
                try self.sites(in: value, schema: schema, policy: policy, tokens: tokens, scopes: scopes, top: false, into: &sites, using: &random)
            } else {
                sites.append(EditSite(change: .redraw(policy), tokens: tokens, schema: schema, scopes: scopes))
            }
        case .fields, .lww, .highest:
            if let value, case .object = value, policy != .plain || hasStructure(schema, using: &random) {
                try self.sites(in: value, schema: schema, policy: policy, tokens: tokens, scopes: scopes, top: false, into: &sites, using: &random)
            } else {
                sites.append(EditSite(change: .redraw(policy), tokens: tokens, schema: schema, scopes: scopes))
            }
        }
    }

    /// Whether an object schema declares properties or entries (else its value is a leaf).
    func hasStructure(_ schema: JSONValue, using random: inout SplitMix) -> Bool {
        guard let (keywords, _) = try? resolved(schema, pointer: "", using: &random) else { return false }
        return keywords["properties"] != nil || keywords["additionalProperties"] != nil || keywords["patternProperties"] != nil
    }

    /// `document` with `site` changed and its scopes' stamps raised, and what changed; nil
    /// when the site cannot change (a bound reached, nothing new to add).
    func apply(_ site: EditSite, to document: JSONValue,
               using random: inout SplitMix) throws(GenerationError) -> (JSONValue, [String])? {
        let pointer = "/" + site.tokens.map(MergePolicy.escape).joined(separator: "/")
        let current = document.value(at: site.tokens)
        var changed: JSONValue
        var line: String
        switch site.change {
        case .counter:
            let count: Int64 = if case .integer(let value)? = current { value } else { 0 }
            let amount = Int64.random(in: 1...3, using: &random)
            changed = .integer(count + amount)
            line = "\(pointer): counter +\(amount)"
        case .extreme(let max):
            guard let moved = try moved(current, up: max, schema: site.schema, key: site.tokens.last, using: &random) else { return nil }
            changed = moved
            line = "\(pointer): \(max ? "raised" : "lowered") to \(moved.inlineText)"
        case .union:
            let (keywords, _) = try resolved(site.schema, pointer: pointer, using: &random)
            var elements = current?.arrayValue ?? []
            var added: [JSONValue] = []
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                let element = try value(keywords["items"] ?? .bool(true), pointer: pointer, key: site.tokens.last, using: &random)
                if !elements.contains(where: { JSONValue.same($0, element) }) { elements.append(element); added.append(element) }
            }
            guard !added.isEmpty else { return nil }
            changed = .array(elements)
            line = "\(pointer): added \(added.map(\.inlineText).joined(separator: ", "))"
        case .entry(let by):
            let entries = current?.objectValue ?? [:]
            let key = !entries.isEmpty && Bool.random(using: &random)
                ? JSONValue.sortedKeys(entries).randomElement(using: &random)!
                : try mapKey(for: site.tokens.last, pattern: nil, pointer: pointer, using: &random)
            var entry = try value(site.schema, pointer: pointer, key: key, policy: .lww(by, children: [:]), using: &random)
            if case .object(var fields) = entry {
                fields[by] = greater(than: entries[key]?.field(by), fresh: fields[by])
                entry = .object(fields)
            }
            var map = entries
            map[key] = entry
            changed = .object(map)
            line = "\(pointer)/\(MergePolicy.escape(key)): entry written, \(by) \(entry.field(by)?.inlineText ?? "-")"
        case .redraw(let policy):
            var drawn = current
            for _ in 0..<5 where drawn.map({ JSONValue.same($0, current) }) ?? true {
                drawn = try value(site.schema, pointer: pointer, key: site.tokens.last, policy: policy, using: &random)
            }
            guard let drawn, !JSONValue.same(drawn, current) else { return nil }
            changed = drawn
            line = "\(pointer): \(current == nil ? "added" : "set to") \(drawn.inlineText)"
        }
        var result = document.setting(changed, at: site.tokens)
        var lines = [line]
        for scope in site.scopes {
            guard let object = result.value(at: scope.tokens), case .object(var fields) = object else { continue }
            switch scope.policy {
            case .lww(let field, _, _):
                fields[field] = greater(than: fields[field], fresh: fields[field])
                lines.append("/" + (scope.tokens + [field]).map(MergePolicy.escape).joined(separator: "/") + ": stamped \(fields[field]?.inlineText ?? "-")")
            case .highest(let version, let then, _):
                if scope.policy.stampFields.contains(version) {
                    fields[version] = greater(than: fields[version], fresh: fields[version])
                } else if case .integer(let number)? = fields[version] {
                    fields[version] = .integer(number + 1)
                }
                if let then, scope.policy.stampFields.contains(then) { fields[then] = greater(than: fields[then], fresh: fields[then]) }
                lines.append("/" + (scope.tokens + [version]).map(MergePolicy.escape).joined(separator: "/") + ": version \(fields[version]?.inlineText ?? "-")")
            default:
                continue
            }
            result = result.setting(.object(fields), at: scope.tokens)
        }
        return (result, lines)
    }

    /// A stamp later than `current`, in its form (integer or date-time text; `fresh` shows
    /// the form when there is none): this step's when that is later, else `current` plus one.
    func greater(than current: JSONValue?, fresh: JSONValue?) -> JSONValue? {
        let step = time ?? 0
        switch current ?? fresh {
        case .integer(let value)?:
            return .integer(Swift.max(value + 1, 1_000 + step))
        case .string(let text)?:
            let stamp = GeneratedTime.stamp(step)
            if current == nil || stamp.utf8.lexicographicallyPrecedes(text.utf8) == false && stamp != text { return .string(stamp) }
            return .string(GeneratedTime.text((GeneratedTime.seconds(text) ?? GeneratedTime.stampStart + step) + 1))
        default:
            return fresh
        }
    }

    /// A value past `current` in the direction of `max` (`up`) or `min`, within the schema;
    /// absent: any value; nil when none is (a bound reached).
    func moved(_ current: JSONValue?, up: Bool, schema: JSONValue, key: String?,
               using random: inout SplitMix) throws(GenerationError) -> JSONValue? {
        guard let current else {
            return try value(schema, pointer: "", key: key, policy: up ? .max : .min, using: &random)
        }
        // Null is the smallest value: nothing lowers it, anything else raises it.
        if current == .null {
            guard up else { return nil }
            for _ in 0..<DocumentGenerator.attempts {
                let drawn = try value(schema, pointer: "", key: key, policy: .max, using: &random)
                if drawn != .null { return drawn }
            }
            return nil
        }
        let (keywords, _) = try resolved(schema, pointer: "", using: &random)
        let step = time ?? 0
        var candidate: JSONValue
        switch current {
        case .integer(let value):
            let amount = Int64.random(in: 1...5, using: &random)
            candidate = .integer(up ? value + amount : value - amount)
        case .double(let value):
            let amount = Double(Int.random(in: 1...8, using: &random)) / 4
            candidate = .double(up ? value + amount : value - amount)
        case .bool(let value):
            guard value != up else { return nil }
            candidate = .bool(up)
        case .string(let text):
            guard let seconds = GeneratedTime.seconds(text) else { return nil }
            let target = up ? Swift.max(seconds + 1, GeneratedTime.stampStart + step)
                            : Swift.min(seconds - 1, GeneratedTime.lowerStart - step)
            candidate = .string(GeneratedTime.text(target))
        default:
            return nil
        }
        if accepts(candidate, .object(keywords)) { return candidate }
        // Clamp to the bound the schema sets.
        if let bound = keywords[up ? "maximum" : "minimum"]?.number {
            let clamped: JSONValue = if case .integer = current { .integer(Int64(bound)) } else { .double(bound) }
            if accepts(clamped, .object(keywords)), JSONValue.stampOrder(clamped, current) == (up ? 1 : -1) { return clamped }
        }
        return nil
    }
}

extension JSONValue {
    /// The value at `tokens` (keys from the top), nil when there is none.
    func value(at tokens: [String]) -> JSONValue? {
        var value: JSONValue? = self
        for token in tokens { value = value?.field(token) }
        return value
    }

    /// The value with the one at `tokens` replaced (objects on the way created).
    func setting(_ replacement: JSONValue, at tokens: [String]) -> JSONValue {
        guard let first = tokens.first else { return replacement }
        var fields = objectValue ?? [:]
        fields[first] = (fields[first] ?? .object([:])).setting(replacement, at: Array(tokens.dropFirst()))
        return .object(fields)
    }

    /// The value's canonical text on one line.
    var inlineText: String {
        canonicalText.split(separator: "\n").map { $0.drop { $0 == " " } }.joined(separator: " ")
    }
}
