import GitFormat

/// The tree an update wrote, and what the updated paths held before it.
public struct UpdatedTree: Hashable, Sendable {
    /// The new root tree.
    public var id: ObjectID
    /// The blob each updated path had in the baseline, by path; a path that was not there
    /// has none.
    public var previous: [String: ObjectID]
}
