import CairnMerge
import Git
import GitFormat

/// What repairing a damaged store did (``Home/repairStore(_:from:options:mergeDriver:)``).
public struct RepairResult: Sendable {
    /// The remote the store was restored from.
    public var remote: RemoteURL?
    /// The documents of the damaged store that the remote lacked or held otherwise, now in
    /// the repaired store, sorted.
    public var kept: [DocumentPath] = []
    /// How many of them were merged with the remote's version of the same document.
    public var merged = 0
    /// What the policies decided in those merges.
    public var conflicts: [ConflictRecord] = []
    /// Files of the damaged store's documents that could not be kept: unreadable, not valid
    /// JSON, or refused by their schema. They stay in the damaged copy.
    public var skipped: [String] = []
    /// The checkpoint that holds the kept documents, or nil when none was kept.
    public var checkpoint: ObjectID?
    /// Where the damaged store was moved (kept whole; delete it once nothing is missed).
    public var damagedCopy = ""

    public init() {}
}
