import CairnMerge
import Git
import GitFormat

extension Store {
    /// What merging two revisions gives, without touching the branch, the working tree or the
    /// pending writes: the merged tree (written to the object database, so that `git ls-tree`
    /// and `git diff` can read it) and what the policies decided. The same merge `sync` makes,
    /// over the same merge base (a virtual one for criss-cross histories); the counterpart of
    /// `git merge-tree --write-tree`.
    public func mergeTree(_ ours: String, _ theirs: String) throws(CairnError) -> (tree: TreeID, conflicts: [ConflictRecord]) {
        let first = try resolve(ours)
        let second = try resolve(theirs)
        return try translatingErrors("cannot merge \(ours) and \(theirs)") { () throws -> (tree: TreeID, conflicts: [ConflictRecord]) in
            let merge = StoreMerge(repository: repository, schemaSet: try schemaSet(), codec: codec, context: MergeContext(clock: clock()))
            let outcome = try merge.merge(commit: first.id, with: second.id)
            return (TreeID(outcome.tree), outcome.conflicts)
        }
    }
}
