import CairnMerge

/// A version of a content item that a download did not take because it breaks the rules of
/// content (a file outside the item, a document that is not JSON or that its schema refuses,
/// the item's own document missing): the device kept, or took, the newest version that holds
/// to them, and records which it passed over and why.
///
/// A server with Cairn's hook never takes such a version; one without it (or a path remote)
/// may, and its history cannot be rewritten, so a device that refused every version after a
/// broken one would be stuck on the item for good.
public struct PassedOverVersion: Sendable, Hashable {
    /// The version's number (1 for the first version published, then 2, …).
    public var version: Int
    /// Its commit on the item's `main`.
    public var commit: CheckpointID
    /// What is wrong with it, in one line (the first problem, when there are several).
    public var reason: String

    public init(version: Int, commit: CheckpointID, reason: String) {
        self.version = version
        self.commit = commit
        self.reason = reason
    }

    /// `{"version": 2, "commit": "<40 hex digits>", "reason": "…"}`.
    public var jsonValue: JSONValue {
        .object(["version": .integer(Int64(version)), "commit": .string(commit.hex), "reason": .string(reason)])
    }

    /// Read from the cache's record; nil when a field is missing or wrong.
    init?(_ value: JSONValue) {
        guard case .integer(let version)? = value.field("version"), case .string(let hex)? = value.field("commit"),
            let commit = CheckpointID(hex: hex), case .string(let reason)? = value.field("reason")
        else { return nil }
        self.init(version: Int(clamping: version), commit: commit, reason: reason)
    }
}
