extension Store {
    /// Runs `body` while holding the store's lock, so no other process writes meanwhile
    /// (an app's batch of writes, a backup, a test that needs the store to stay still).
    public func withExclusiveAccess<T>(_ body: () throws -> T) throws(CairnError) -> T {
        try locked("cannot lock the store", body)
    }
}
