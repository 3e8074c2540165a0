/// One checkpoint in a history listing.
public struct HistoryEntry: Sendable {
    public var checkpoint: Checkpoint
    /// For the history of one document: what the checkpoint did to it.
    public var change: FileChange.Kind?
}
