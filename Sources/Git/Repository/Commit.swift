import GitFormat

/// What Cairn reads of a commit: its id, tree, parents, message, author and time.
public struct Commit: Hashable, Sendable {
    public var id: ObjectID
    public var treeID: ObjectID
    public var parentIDs: [ObjectID]
    /// The whole message, as stored.
    public var message: String
    public var author: Signature
    public var committer: Signature

    /// The message's first line.
    public var summary: String {
        String(message.prefix { $0 != "\n" })
    }
}
