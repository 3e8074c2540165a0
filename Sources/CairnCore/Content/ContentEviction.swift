/// Which items a download evicts to fit the limits (seed 001 §3.2), decided before anything is
/// removed: first the expired items, oldest expiry first, then the least recently used
/// (last read, else downloaded), until the new item fits the budget and the count. An item
/// whose pinned progress is not yet pushed (`protected`) is never evicted, nor the item
/// being downloaded again (it is replaced, not evicted).
public struct ContentEviction: Sendable, Hashable {
    /// The items to evict, in order.
    public var evicted: [CachedItem]

    /// Why a download cannot fit even once everything evictable is gone.
    public struct Shortfall: Error, Sendable, Hashable {
        /// The bytes and items that stay: the protected ones.
        public var keptBytes: Int64
        public var keptItems: Int
        /// The protected items that stay.
        public var protected: [String]
    }

    /// The plan for a download of `incomingBytes` as `key` (`collection/item`), or the
    /// shortfall when it cannot fit. `items` are those held (the old version of `key` among
    /// them, if any), `protected` the keys of items with progress not yet pushed.
    public static func plan(
        items: [CachedItem], incoming key: String, incomingBytes: Int64, limits: ContentLimits,
        protected: Set<String>, now: Int64
    ) -> Result<ContentEviction, Shortfall> {
        var staying = items.filter { $0.key != key }
        func fits() -> Bool {
            staying.count + 1 <= limits.maxItems && staying.reduce(incomingBytes) { $0 + $1.sizeBytes } <= limits.budgetBytes
        }
        let candidates = staying.filter { !protected.contains($0.key) }.sorted { first, second in
            let (firstExpired, secondExpired) = (first.isExpired(at: now), second.isExpired(at: now))
            if firstExpired != secondExpired { return firstExpired }
            let (firstTime, secondTime) = firstExpired ? (first.expiresAt, second.expiresAt) : (first.lastUsedAt, second.lastUsedAt)
            if firstTime != secondTime { return firstTime < secondTime }
            return first.key.utf8.lexicographicallyPrecedes(second.key.utf8)
        }
        var evicted: [CachedItem] = []
        for candidate in candidates where !fits() {
            evicted.append(candidate)
            staying.removeAll { $0.key == candidate.key }
        }
        guard fits() else {
            return .failure(
                Shortfall(
                    keptBytes: staying.reduce(0) { $0 + $1.sizeBytes }, keptItems: staying.count,
                    protected: staying.map(\.key).sorted()))
        }
        return .success(ContentEviction(evicted: evicted))
    }
}
