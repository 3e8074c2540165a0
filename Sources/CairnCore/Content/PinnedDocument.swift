import CairnMerge

/// A document of a kind that pins content (`x-cairn.pins`), with the item it answers and the
/// version it was made against (nil when it was written while the item was not downloaded).
public struct PinnedDocument: Sendable, Hashable {
    public var path: DocumentPath
    /// The content's collection (`assessments`).
    public var collection: String
    /// The item the document names (`a1`).
    public var item: String
    /// The commit of the item the document answers (40 hex digits, as Cairn filled it, or what
    /// the app gave); nil when unpinned.
    public var version: String?

    public init(path: DocumentPath, collection: String, item: String, version: String?) {
        self.path = path
        self.collection = collection
        self.item = item
        self.version = version
    }
}
