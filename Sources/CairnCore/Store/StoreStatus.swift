/// What a store holds that the last checkpoint does not.
public struct StoreStatus: Sendable {
    /// The last checkpoint, or nil in a store without one.
    public var head: Checkpoint?
    /// Files written since the last checkpoint (and, after a scan, edited by hand), sorted.
    public var pending: [FileChange]
    /// Where `HEAD` is when a git command moved it off the store's branch ("detached at
    /// 1a2b3c4", "on branch side"); nil when it is on it. Writing commands refuse meanwhile.
    public var headElsewhere: String? = nil
}
