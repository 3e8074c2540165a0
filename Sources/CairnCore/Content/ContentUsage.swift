/// The storage screen of seed 001 §8.2: what the cache holds against its limits, and the
/// progress not yet pushed that answers each item.
public struct ContentUsage: Sendable, Hashable {
    public var items: [CachedItem]
    public var limits: ContentLimits
    /// Pinned documents not yet pushed, per item key (`collection/item`), over every store of
    /// the home; items of no downloaded content count too (downloaded once, since removed).
    public var pending: [String: Int]
    /// The stores that could not be read for their pending documents (their items are
    /// protected from eviction, since what they hold is unknown).
    public var unreadableStores: [String]

    /// The bytes the items take on disk.
    public var usedBytes: Int64 { items.reduce(0) { $0 + $1.sizeBytes } }
    /// Every pinned document not yet pushed.
    public var pendingTotal: Int { pending.values.reduce(0, +) }
}
