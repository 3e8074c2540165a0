import CairnMerge

extension GenerationContext {
    /// The places of `value` (of `schema`, merged by `policy`) an edit can change.
    func sites(
        in value: JSONValue, schema: JSONValue, policy: MergePolicy, tokens: [String],
        scopes: [(tokens: [String], policy: MergePolicy)], top: Bool,
        into sites: inout [EditSite], using random: inout SplitMix
    ) throws(GenerationError) {
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
            if top, kind.computedFields.contains(name) || kind.pin?.versionField == name || kind.assets[name] != nil { continue }
            if policy.comparedFields.contains(name), policy.children[name] == nil { continue }
            let child = policy.children[name] ?? (sidePicking ? .plain : policy.entryPolicy ?? .plain)
            try site(
                for: fields[name], named: name, schema: properties[name]!, policy: child, tokens: tokens + [name],
                scopes: scopes, into: &sites, using: &random)
        }
        // A map's entries, each under the schemas its key falls under, and a new one of a
        // drawn pattern (or of additionalProperties).
        let entrySchemas = Self.entrySchemas(keywords, pointer: "")
        guard !entrySchemas.isEmpty else { return }
        if case .entriesLatest(let by) = policy {
            sites.append(EditSite(change: .entry(by: by), tokens: tokens, schema: .object(keywords), scopes: scopes))
            return
        }
        let entryPolicy = policy.entryPolicy ?? .plain
        for key in JSONValue.sortedKeys(fields) where properties[key] == nil {
            guard let schema = entrySchema(for: key, in: keywords) else { continue }
            try site(
                for: fields[key], named: key, schema: schema, policy: entryPolicy, tokens: tokens + [key],
                scopes: scopes, into: &sites, using: &random)
        }
        let chosen = try freshKey(for: tokens.last, among: entrySchemas, using: &random)
        if fields[chosen] == nil, let schema = entrySchema(for: chosen, in: keywords) {
            sites.append(EditSite(change: .redraw(entryPolicy), tokens: tokens + [chosen], schema: schema, scopes: scopes))
        }
    }

    /// A key for a new entry of a map (named `map`): of one of `entrySchemas`, drawn when
    /// there are several.
    func freshKey(
        for map: String?, among entrySchemas: [(schema: JSONValue, pointer: String, pattern: String?)],
        using random: inout SplitMix
    ) throws(GenerationError) -> String {
        let entries = entrySchemas.count > 1 ? entrySchemas[Int.random(in: 0..<entrySchemas.count, using: &random)] : entrySchemas.first
        return try mapKey(for: map, pattern: entries?.pattern, pointer: entries?.pointer ?? "", using: &random)
    }

    /// The site of one value (absent: it can be added), by its policy.
    func site(
        for value: JSONValue?, named name: String, schema: JSONValue, policy: MergePolicy, tokens: [String],
        scopes: [(tokens: [String], policy: MergePolicy)], into sites: inout [EditSite],
        using random: inout SplitMix
    ) throws(GenerationError) {
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
                try self.sites(
                    in: value, schema: schema, policy: policy, tokens: tokens, scopes: scopes, top: false, into: &sites, using: &random)
            } else {
                sites.append(EditSite(change: .redraw(policy), tokens: tokens, schema: schema, scopes: scopes))
            }
        case .fields, .lww, .highest:
            if let value, case .object = value, policy != .plain || hasStructure(schema, using: &random) {
                try self.sites(
                    in: value, schema: schema, policy: policy, tokens: tokens, scopes: scopes, top: false, into: &sites, using: &random)
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
    /// when the site cannot change (a bound reached, nothing new to add, a number at the
    /// end of the 64-bit range).
    func apply(
        _ site: EditSite, to document: JSONValue,
        using random: inout SplitMix
    ) throws(GenerationError) -> (JSONValue, [String])? {
        let pointer = "/" + site.tokens.map(MergePolicy.escape).joined(separator: "/")
        let current = document.value(at: site.tokens)
        var changed: JSONValue
        var line: String
        switch site.change {
        case .counter:
            let count: Int64 = if case .integer(let value)? = current { value } else { 0 }
            let amount = Int64.random(in: 1...3, using: &random)
            let (raised, overflow) = count.addingReportingOverflow(amount)
            guard !overflow else { return nil }
            changed = .integer(raised)
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
                if !elements.contains(where: { JSONValue.same($0, element) }) {
                    elements.append(element)
                    added.append(element)
                }
            }
            guard !added.isEmpty else { return nil }
            changed = .array(elements)
            line = "\(pointer): added \(added.map(\.inlineText).joined(separator: ", "))"
        case .entry(let by):
            guard case .object(let keywords) = site.schema else { return nil }
            let entries = current?.objectValue ?? [:]
            let key =
                !entries.isEmpty && Bool.random(using: &random)
                ? JSONValue.sortedKeys(entries).randomElement(using: &random)!
                : try freshKey(for: site.tokens.last, among: Self.entrySchemas(keywords, pointer: pointer), using: &random)
            guard let schema = entrySchema(for: key, in: keywords) else { return nil }
            var entry = try value(schema, pointer: pointer, key: key, policy: .lww(by, children: [:]), using: &random)
            if case .object(var fields) = entry {
                guard !Self.isAtTop(entries[key]?.field(by)) else { return nil }
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
                guard !Self.isAtTop(fields[field]) else { return nil }
                fields[field] = greater(than: fields[field], fresh: fields[field])
                lines.append(
                    "/" + (scope.tokens + [field]).map(MergePolicy.escape).joined(separator: "/")
                        + ": stamped \(fields[field]?.inlineText ?? "-")")
            case .highest(let version, let then, _):
                guard !Self.isAtTop(fields[version]) else { return nil }
                if scope.policy.stampFields.contains(version) {
                    fields[version] = greater(than: fields[version], fresh: fields[version])
                } else if case .integer(let number)? = fields[version] {
                    fields[version] = .integer(number + 1)
                }
                if let then, scope.policy.stampFields.contains(then) {
                    guard !Self.isAtTop(fields[then]) else { return nil }
                    fields[then] = greater(than: fields[then], fresh: fields[then])
                }
                lines.append(
                    "/" + (scope.tokens + [version]).map(MergePolicy.escape).joined(separator: "/")
                        + ": version \(fields[version]?.inlineText ?? "-")")
            default:
                continue
            }
            result = result.setting(.object(fields), at: scope.tokens)
        }
        return (result, lines)
    }

    /// A stamp later than `current`, in its form (integer or date-time text; `fresh` shows
    /// the form when there is none): this step's when that is later, else `current` plus one.
    /// (An integer at the top of its range stays: ``isAtTop(_:)`` keeps edits from raising it.)
    func greater(than current: JSONValue?, fresh: JSONValue?) -> JSONValue? {
        let step = time ?? 0
        switch current ?? fresh {
        case .integer(let value)?:
            return .integer(Swift.max(value == .max ? value : value + 1, 1_000 + step))
        case .string(let text)?:
            let stamp = GeneratedTime.stamp(step)
            if current == nil || stamp.utf8.lexicographicallyPrecedes(text.utf8) == false && stamp != text { return .string(stamp) }
            return .string(ISO8601Stamp.text(seconds: (GeneratedTime.seconds(text) ?? GeneratedTime.stampStart + step) + 1))
        default:
            return fresh
        }
    }

    /// Whether `stamp` is the greatest integer there is: nothing is later, so no edit can
    /// raise it.
    static func isAtTop(_ stamp: JSONValue?) -> Bool {
        stamp == .integer(.max)
    }

    /// A value past `current` in the direction of `max` (`up`) or `min`, within the schema;
    /// absent: any value; nil when none is (a bound reached).
    func moved(
        _ current: JSONValue?, up: Bool, schema: JSONValue, key: String?,
        using random: inout SplitMix
    ) throws(GenerationError) -> JSONValue? {
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
            let (next, overflow) = up ? value.addingReportingOverflow(amount) : value.subtractingReportingOverflow(amount)
            guard !overflow else { return nil }
            candidate = .integer(next)
        case .double(let value):
            let amount = Double(Int.random(in: 1...8, using: &random)) / 4
            candidate = .double(up ? value + amount : value - amount)
        case .bool(let value):
            guard value != up else { return nil }
            candidate = .bool(up)
        case .string(let text):
            guard let seconds = GeneratedTime.seconds(text) else { return nil }
            let target =
                up
                ? Swift.max(seconds + 1, GeneratedTime.stampStart + step)
                : Swift.min(seconds - 1, GeneratedTime.lowerStart - step)
            candidate = .string(ISO8601Stamp.text(seconds: target))
        default:
            return nil
        }
        if accepts(candidate, .object(keywords)) { return candidate }
        // Clamp to the bound the schema sets.
        if let bound = keywords[up ? "maximum" : "minimum"]?.number, bound.isFinite {
            let clamped: JSONValue =
                if case .integer = current, let whole = Int64(exactly: bound) { .integer(whole) } else { .double(bound) }
            if accepts(clamped, .object(keywords)), JSONValue.stampOrder(clamped, current) == (up ? 1 : -1) { return clamped }
        }
        return nil
    }
}
