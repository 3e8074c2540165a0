import CairnMerge

/// What a checkpoint committed.
public struct CheckpointResult: Sendable {
    /// The new checkpoint, or nil when there was nothing to commit.
    public var id: CheckpointID?
    /// The files the commit changed, sorted.
    public var changes: [FileChange]
    /// Derived fields of hand-edited documents that the checkpoint computed again (a scan).
    public var corrections: [DerivedFieldMismatch]

    public init(id: CheckpointID?, changes: [FileChange], corrections: [DerivedFieldMismatch] = []) {
        self.id = id
        self.changes = changes
        self.corrections = corrections
    }

    /// The changes counted by kind: `2 added, 1 deleted`.
    public var summary: String {
        Self.summarize(changes)
    }

    static func summarize(_ changes: [FileChange]) -> String {
        // An asset's pointer goes with its document: the document is what changed.
        let counted = changes.filter { StoreLayout.assetField(ofPointerFile: $0.path) == nil }
        let counts = [FileChange.Kind.added, .modified, .deleted].compactMap { kind -> String? in
            let count = counted.filter { $0.kind == kind }.count
            return count == 0 ? nil : "\(count) \(kind.rawValue)"
        }
        return counts.isEmpty ? "no document changed" : counts.joined(separator: ", ")
    }
}
