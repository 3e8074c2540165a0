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
}
