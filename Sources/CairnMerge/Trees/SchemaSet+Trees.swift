extension SchemaSet {
    /// Merges whole sets of documents (path → document) under the policies of this set:
    /// documents added, changed or deleted on either side, a modification kept against a
    /// deletion (with the documents above it), an addition on both sides merged against an
    /// empty base, counts of documents moved by what the documents that differ did (counted
    /// in full where `base` has no whole number to start from: see
    /// `TreeMerge/recountDerivedCounts(_:base:ours:theirs:)`; stores whose counts are right, as every
    /// put leaves them, give counts that are right). The store's merge (`TreeMerge`) over
    /// documents in memory: the same documents and the same records as a sync, and symmetric
    /// like every policy, whichever side is `ours`.
    public func mergeDocuments(
        base: [DocumentPath: JSONValue], ours: [DocumentPath: JSONValue], theirs: [DocumentPath: JSONValue],
        context: MergeContext = MergeContext()
    ) -> (documents: [DocumentPath: JSONValue], conflicts: [ConflictRecord]) {
        let merge = TreeMerge(source: InMemoryMergeSource(), schemaSet: self, context: context)
        let outcome = merge.merge(
            base: InMemoryMergeSource.tree(base), ours: InMemoryMergeSource.tree(ours),
            theirs: InMemoryMergeSource.tree(theirs))
        return (InMemoryMergeSource.documents(outcome.tree), outcome.conflicts)
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
