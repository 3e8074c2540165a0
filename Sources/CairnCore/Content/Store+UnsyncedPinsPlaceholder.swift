/// A pinned document (until the pinning work lands).
public struct PinnedDocument: Sendable, Hashable {
    public var collection: String
    public var item: String
}

extension Store {
    public func unsyncedPins() throws(CairnError) -> [PinnedDocument] { [] }
}
