extension SchemaSet {
    /// Merges whole sets of documents (path → document) under the policies of this set:
    /// documents added, changed or deleted on either side, a modification kept against a
    /// deletion, an addition on both sides merged against an empty base. Symmetric like every
    /// policy: the same documents and the same records, whichever side is `ours`.
    public func mergeDocuments(
        base: [DocumentPath: JSONValue], ours: [DocumentPath: JSONValue], theirs: [DocumentPath: JSONValue]
    ) -> (documents: [DocumentPath: JSONValue], conflicts: [ConflictRecord]) {
        var documents: [DocumentPath: JSONValue] = [:]
        var conflicts: [ConflictRecord] = []
        for path in Set(base.keys).union(ours.keys).union(theirs.keys) {
            let outcome = merge(path, base: base[path], ours: ours[path], theirs: theirs[path])
            if let value = outcome.value { documents[path] = value }
            conflicts += outcome.conflicts
        }
        // A document deleted with its subcollections on one side while the other changed
        // something below it comes back (from either side: it is the base's), so the kept
        // change is never left without its parent.
        for path in documents.keys.sorted() {
            var length = 2
            while length < path.segments.count {
                let ancestor = DocumentPath(checkedSegments: Array(path.segments.prefix(length)))
                length += 2
                guard documents[ancestor] == nil, let kept = ours[ancestor] ?? theirs[ancestor] ?? base[ancestor] else { continue }
                documents[ancestor] = kept
                conflicts.append(ConflictRecord(document: ancestor.description, pointer: "", policy: "cascade", kept: kept, replaced: nil))
            }
        }
        // Counts of documents: from the merged documents.
        for (path, value) in documents {
            guard let kind = kind(of: path), !kind.counted.isEmpty else { continue }
            documents[path] = kind.filled(value) { count in
                documents.filter { count.contains($0.key, below: path) }.map(\.value)
            }
        }
        return (documents, conflicts.sorted())
    }
}

extension SchemaSet {
    /// Every document with its derived fields and counts computed from the whole set of
    /// documents, as a store holds them after a migration.
    public func filledAll(_ documents: [DocumentPath: JSONValue]) -> [DocumentPath: JSONValue] {
        var filled: [DocumentPath: JSONValue] = [:]
        for (path, value) in documents {
            filled[path] = self.filled(value, at: path) { count in
                documents.filter { count.contains($0.key, below: path) }.map(\.value)
            }
        }
        return filled
    }
}
