import GitFormat

/// A path whose entry differs among several trees, and that entry in each of them (nil where
/// the path is absent, or is a folder there). Folders themselves are never differences: what
/// differs inside them is.
public struct TreeDifference: Hashable, Sendable {
    /// The path from the top of the trees, `/`-separated.
    public var path: String
    /// The path's components exactly as stored.
    public var components: [[UInt8]]
    /// The entry in each tree, in the order the trees were given.
    public var entries: [TreeEntry?]
}
