extension SchemaSet.Kind {
    /// The assets `document` points to, by field (fields holding null or nothing are left out).
    public func assetReferences(in document: JSONValue) -> [String: AssetReference] {
        var references: [String: AssetReference] = [:]
        for name in assets.keys {
            if let value = document.field(name), let reference = AssetReference(value) { references[name] = reference }
        }
        return references
    }

    /// What is wrong with the asset fields of `document`: a value that is not an asset
    /// reference, or an asset larger than the field takes.
    func assetErrors(in document: JSONValue) -> [ValidationError] {
        var errors: [ValidationError] = []
        for (name, field) in assets.sorted(by: { $0.key < $1.key }) {
            guard let value = document.field(name), value != .null else { continue }
            let pointer = "/" + MergePolicy.escape(name)
            guard let reference = AssetReference(value) else {
                errors.append(
                    ValidationError(
                        pointer: pointer, keyword: "asset", schemaPath: "/x-cairn/assets" + pointer,
                        message: AssetReference.form))
                continue
            }
            if let limit = field.maxBytes, reference.size > limit {
                errors.append(
                    ValidationError(
                        pointer: pointer, keyword: "maxBytes", schemaPath: "/x-cairn/assets" + pointer + "/maxBytes",
                        message: "the asset is \(reference.size) bytes; \(name) takes at most \(limit)"))
            }
        }
        return errors
    }

    /// An asset reference is one value, never merged part by part. Where the document's
    /// policy merged an asset field key by key:
    /// - into a value neither side had (the oid of one asset and the size of another), the
    ///   field is set to one side's value whole — the greater in canonical order, so the
    ///   result is the same whichever side is `ours`;
    /// - into one side's value, decided part by part (each part happened to favour the same
    ///   side), the value stays;
    /// and either way the records of its parts become one record of policy
    /// ``PolicyName/asset`` at the field, naming the whole reference kept and replaced.
    func keepAssetsWhole(_ outcome: inout MergeOutcome, base: JSONValue?, ours: JSONValue?, theirs: JSONValue?) {
        guard case .object(var merged)? = outcome.value else { return }
        for name in assets.keys.sorted() {
            let pointer = "/" + MergePolicy.escape(name)
            let value = merged[name]
            let (mine, other) = (ours?.field(name), theirs?.field(name))
            let kept: JSONValue?, replaced: JSONValue?
            if [base, ours, theirs].contains(where: { $0?.field(name) == value }) {
                // One side's value: only records of its parts need to become one.
                guard outcome.conflicts.contains(where: { $0.pointer.hasPrefix(pointer + "/") }) else { continue }
                (kept, replaced) = value == mine ? (mine, other) : (other, mine)
            } else {
                let takesMine = (other?.canonicalBytes() ?? []).lexicographicallyPrecedes(mine?.canonicalBytes() ?? [])
                (kept, replaced) = takesMine ? (mine, other) : (other, mine)
                merged[name] = kept
            }
            outcome.conflicts.removeAll { $0.pointer == pointer || $0.pointer.hasPrefix(pointer + "/") }
            outcome.conflicts.append(ConflictRecord(pointer: pointer, policy: .asset, kept: kept, replaced: replaced))
        }
        outcome.value = .object(merged)
    }

    /// Whether `new` is `old` with one or more asset fields cleared (null, or removed) and
    /// nothing else changed: the one change an append-only document takes, so that a
    /// recording can always be deleted.
    public func onlyClearsAssets(from old: JSONValue, to new: JSONValue) -> Bool {
        guard !assets.isEmpty, case .object(var before) = old, case .object(var after) = new else { return false }
        var cleared = false
        for name in assets.keys {
            let was = before[name], now = after[name]
            if was == now { continue }
            guard was != nil, was != .null, now == nil || now == .null else { return false }
            cleared = true
            before[name] = nil
            after[name] = nil
        }
        return cleared && before == after
    }
}

extension SchemaSet {
    /// Whether any kind of the set holds assets.
    public var hasAssets: Bool {
        kinds.contains { !$0.assets.isEmpty }
    }

    /// The Git LFS pointer files of the assets `document` (nil: deleted) points to, at the
    /// document `path`: path in the tree → bytes.
    public func assetPointers(of document: JSONValue?, at path: DocumentPath) -> [String: [UInt8]] {
        guard let document, let kind = kind(of: path), !kind.assets.isEmpty else { return [:] }
        var pointers: [String: [UInt8]] = [:]
        for (field, reference) in kind.assetReferences(in: document) {
            pointers[StoreLayout.assetPointerFile(of: path, field: field)] = reference.pointerBytes
        }
        return pointers
    }
}
