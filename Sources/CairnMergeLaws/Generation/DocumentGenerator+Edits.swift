import CairnMerge

extension DocumentGenerator {
    /// `document` (of `kind`, at `path`) changed as a device would change it at step `time`
    /// (see ``DocumentEdit``); nil when its policy allows no edit (append-only) or nothing
    /// in it can change now (every bounded value at its bound, or the document already
    /// refused by its schema).
    public func edit(
        _ document: JSONValue, of kind: SchemaSet.Kind, at path: DocumentPath, time: Int64,
        documents: ((DocumentCount) -> [JSONValue])? = nil,
        using random: inout SplitMix
    ) throws(GenerationError) -> DocumentEdit? {
        guard !kind.policy.isAppendOnly else { return nil }
        func context() -> GenerationContext {
            GenerationContext(generator: self, kind: kind, root: kind.schema.root, captures: kind.pattern.match(path) ?? [:], time: time)
        }
        var sites: [EditSite] = []
        try context().sites(
            in: document, schema: kind.schema.root, policy: kind.policy, tokens: [], scopes: [],
            top: true, into: &sites, using: &random)
        // An edit its schema refuses (a bound reached: a union at its maxItems) is not made;
        // when no site can change, there is no edit. Each attempt with a budget of its own.
        for _ in 0..<Self.attempts where !sites.isEmpty {
            let index = Int.random(in: 0..<sites.count, using: &random)
            guard let (changed, changes) = try context().apply(sites[index], to: document, using: &random) else {
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
