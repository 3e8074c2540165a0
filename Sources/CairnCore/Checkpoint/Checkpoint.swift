import Git

/// One checkpoint of a store (a commit of its branch), as its history, its status and its
/// list of conflicts show it.
public struct Checkpoint: Hashable, Sendable {
    public var id: CheckpointID
    /// The checkpoints it follows: none for the first, two for a merge.
    public var parents: [CheckpointID]
    /// The whole message, as stored.
    public var message: String
    /// Who wrote it, as git's author line names them (`Cairn <u1@cairn.invalid>` for the
    /// store's own checkpoints).
    public var author: String
    /// When it was made: the committer's time, in seconds since 1970-01-01 UTC.
    public var time: Int64
    /// The store copy it was made on (its `Cairn-Device` trailer), nil for a commit that
    /// names none (made by hand, or by a version of Cairn before the trailer).
    public var device: String?
    /// The name of that device (its `Cairn-Device-Name` trailer: the host name unless one was
    /// configured), nil when it names none.
    public var deviceName: String?

    /// The checkpoint a commit read from the store's repository is.
    init(_ commit: Commit) {
        id = CheckpointID(commit.id)
        parents = commit.parentIDs.map(CheckpointID.init)
        message = commit.message
        author = "\(commit.author.name) <\(commit.author.email)>"
        time = commit.committer.time
        device = Store.trailer(Store.deviceTrailer, in: commit.message)
        deviceName = Store.trailer(Store.deviceNameTrailer, in: commit.message)
    }

    /// The message's first line.
    public var summary: String {
        String(message.prefix { $0 != "\n" })
    }
}
