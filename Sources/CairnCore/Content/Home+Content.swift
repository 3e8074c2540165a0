extension Home {
    /// The folder of the content downloaded on this machine, shared by the home's users:
    /// `.content` (a leading dot, so no user id names it). It holds one bare repository per
    /// item (`<collection>/<item>.git`) and the cache's record (`cache.json`).
    public var contentFolder: String { root + "/.content" }

    /// The bare repository of a downloaded item.
    public func contentRepository(collection: String, item: String) -> String {
        contentFolder + "/" + collection + "/" + item + ".git"
    }

    /// The home a store's folder sits in (a store of a home is `<home>/<uid>`).
    public static func containing(storeFolder folder: String) -> String {
        FileSystem.parent(of: folder)
    }
}
