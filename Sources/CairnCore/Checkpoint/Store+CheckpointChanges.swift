import CairnMerge
import Git

extension Store {
    /// The checkpoint a revision names (`HEAD~1`, an id, `main`).
    public func checkpoint(_ revision: String) throws(CairnError) -> Checkpoint {
        Checkpoint(try resolve(revision))
    }

    /// The files a checkpoint changed, sorted: against its first parent (for a merge, what
    /// the merge brought into the branch), every file for the first checkpoint.
    public func changes(in checkpoint: Checkpoint) throws(CairnError) -> [FileChange] {
        try translatingErrors("cannot read the changes of \(checkpoint.id.short)") { () throws -> [FileChange] in
            let tree = try repository.commit(checkpoint.id.objectID).treeID
            let parent = try checkpoint.parents.first.map { try repository.commit($0.objectID).treeID }
            return try repository.differences(among: [parent, tree]).map { difference in
                let kind: FileChange.Kind = difference.entries[0] == nil ? .added : difference.entries[1] == nil ? .deleted : .modified
                return FileChange(path: difference.path, kind: kind)
            }.sorted()
        }
    }
}
