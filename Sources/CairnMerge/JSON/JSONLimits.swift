/// The bounds a document must keep to be parsed and stored.
public struct JSONLimits: Sendable, Hashable {
    /// Largest input, and largest canonical form, in bytes. Firestore's document limit: 1 MiB.
    public var maxBytes: Int
    /// Deepest nesting of arrays and objects. Deeper input is refused before it is read.
    public var maxDepth: Int

    public init(maxBytes: Int = 1 << 20, maxDepth: Int = 128) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }

    /// The limits of stored documents: 1 MiB and 128 levels.
    public static let documents = JSONLimits()
}
