extension ContentCache {
    /// The items, the limits, and the pinned documents not yet pushed per item, over every
    /// store of the home.
    public func usage() throws(CairnError) -> ContentUsage {
        let record = try readRecord()
        let (pending, unreadable) = pendingDocuments()
        return ContentUsage(
            items: record.items.values.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) },
            limits: record.limits, pending: pending, unreadableStores: unreadable)
    }

    /// Pinned documents not yet pushed, per item key, and the users whose store could not be
    /// read for them.
    func pendingDocuments() -> (pending: [String: Int], unreadable: [String]) {
        var pending: [String: Int] = [:]
        var unreadable: [String] = []
        for uid in home.users() {
            do {
                for pin in try home.openStore(uid).unsyncedPins() {
                    pending[pin.collection + "/" + pin.item, default: 0] += 1
                }
            } catch {
                unreadable.append(uid)
            }
        }
        return (pending, unreadable)
    }

    /// The items eviction must leave: those with pinned documents not yet pushed, and every
    /// item when a store could not be read (what it holds is unknown).
    func protectedItems(among items: some Sequence<CachedItem>) -> Set<String> {
        let (pending, unreadable) = pendingDocuments()
        if !unreadable.isEmpty { return Set(items.map(\.key)) }
        return Set(pending.filter { $0.value > 0 }.keys)
    }
}
