extension SchemaSet {
    /// The documents whose derived fields may change when the documents at `changed` do
    /// (written, merged or deleted): each of them that has derived fields or counts, and the
    /// documents above them that count documents like them. Sorted, each once.
    public func documentsToDerive(after changed: [DocumentPath]) -> [DocumentPath] {
        var found = Set<DocumentPath>()
        for path in changed {
            if let kind = kind(of: path), !kind.derived.isEmpty || !kind.counted.isEmpty { found.insert(path) }
            for owner in owners(affectedBy: path) { found.insert(owner) }
        }
        return found.sorted()
    }
}

extension SchemaSet.Kind {
    /// The derived fields of `document`, the document at `path`, that hold something else
    /// than what its schema computes — its counts too, from `documents` (the documents of a
    /// counted collection below it; without, counts are taken as they are): one for each
    /// wrong field, sorted by name. [] when every field is right or the value is no object.
    public func derivedMismatches(
        of document: JSONValue, at path: DocumentPath,
        documents: ((DocumentCount) -> [JSONValue])? = nil
    ) -> [DerivedFieldMismatch] {
        guard case .object(let fields) = document, case .object(let computed) = filled(document, documents: documents) else {
            return []
        }
        return computedFields.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { name in
            guard let expected = computed[name], !JSONValue.same(expected, fields[name]) else { return nil }
            return DerivedFieldMismatch(document: path, field: name, expected: expected, found: fields[name], schemaFile: file)
        }
    }
}
