import CairnMerge
import Git
import GitFormat

/// What a checkpoint committed.
public struct CheckpointResult: Sendable {
    /// The new commit, or nil when there was nothing to commit.
    public var commit: ObjectID?
    /// The files the commit changed, sorted.
    public var changes: [FileChange]
    /// Derived fields of hand-edited documents that the checkpoint computed again (a scan).
    public var corrections: [DerivedFieldMismatch]

    public init(commit: ObjectID?, changes: [FileChange], corrections: [DerivedFieldMismatch] = []) {
        self.commit = commit
        self.changes = changes
        self.corrections = corrections
    }

    /// The changes counted by kind: `2 added, 1 deleted`.
    public var summary: String {
        Self.summarize(changes)
    }

    static func summarize(_ changes: [FileChange]) -> String {
        let counts = [FileChange.Kind.added, .modified, .deleted].compactMap { kind -> String? in
            let count = changes.filter { $0.kind == kind }.count
            return count == 0 ? nil : "\(count) \(kind.rawValue)"
        }
        return counts.isEmpty ? "no document changed" : counts.joined(separator: ", ")
    }
}
