import CairnMerge

extension Checkpoint {
    /// What the policies decided in this checkpoint when it is a merge or an import: the
    /// records its message carries (`Cairn-Conflict:` trailers); [] for any other checkpoint.
    public var conflicts: [ConflictRecord] {
        Store.conflictRecords(in: message)
    }
}
