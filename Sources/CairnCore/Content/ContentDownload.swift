import GitFormat

/// What a download did.
public struct ContentDownload: Sendable, Hashable {
    /// The item as the cache now holds it.
    public var item: CachedItem
    /// The version held before (nil for a first download).
    public var previous: CachedItem?
    /// What the transfer brought: objects and bytes received (few when only a new version's
    /// changes came).
    public var receivedObjects: Int
    public var receivedBytes: Int
    /// The items evicted to make room, in the order they went.
    public var evicted: [CachedItem]

    /// Whether the item was already at the server's version (the download renewed its expiry).
    public var unchanged: Bool { previous?.commit == item.commit }
}
