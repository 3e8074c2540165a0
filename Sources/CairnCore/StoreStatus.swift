import Git

/// What a store holds that the last checkpoint does not.
public struct StoreStatus: Sendable {
    /// The last checkpoint, or nil in a store without one.
    public var head: Commit?
    /// Files written since the last checkpoint (and, after a scan, edited by hand), sorted.
    public var pending: [FileChange]
}
