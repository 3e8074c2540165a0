import CairnMerge
import Git
import GitFormat

/// What importing another user's progress did.
public struct ImportResult: Sendable {
    /// The user imported from.
    public var from: String
    /// The checkpoint that holds the import, or nil when it brought nothing new.
    public var commit: ObjectID?
    /// The documents of the other user taken in (new or changed since the last import).
    public var documents: [DocumentPath]
    /// What the policies decided where both had the same document.
    public var conflicts: [ConflictRecord]
    /// The files of this store the import changed, sorted.
    public var changedFiles: [String] = []
}
