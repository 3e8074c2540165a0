import Git

/// One checkpoint in a history listing.
public struct HistoryEntry: Sendable {
    public var commit: Commit
    /// For the history of one document: what the checkpoint did to it.
    public var change: FileChange.Kind?
}
