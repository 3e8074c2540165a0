import Git

/// What a checkpoint committed.
public struct CheckpointResult: Sendable {
    /// The new commit, or nil when there was nothing to commit.
    public var commit: ObjectID?
    /// The files the commit changed, sorted.
    public var changes: [FileChange]

    public init(commit: ObjectID?, changes: [FileChange]) {
        self.commit = commit
        self.changes = changes
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
