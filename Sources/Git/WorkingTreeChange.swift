/// A file of the working tree that differs from the index, as a scan finds it.
public struct WorkingTreeChange: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// Not in the index (untracked).
        case added
        /// In the index with other content or type.
        case modified
        /// In the index, missing from the working tree.
        case deleted
    }

    /// The path relative to the working tree, `/`-separated.
    public var path: String
    public var kind: Kind

    public init(path: String, kind: Kind) {
        self.path = path
        self.kind = kind
    }
}
