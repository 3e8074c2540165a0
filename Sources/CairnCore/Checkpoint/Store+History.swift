import CairnMerge
import Git

extension Store {
    /// The checkpoints of the store, newest first; with `path`, only those that changed that
    /// document (against every parent, as `git log PATH` simplifies merges).
    public func history(of path: DocumentPath? = nil, limit: Int? = nil) throws(CairnError) -> [HistoryEntry] {
        if let path { try checkOwned(path) }
        return try translatingErrors("cannot read the history") { () throws -> [HistoryEntry] in
            guard let head = try repository.headCommit() else { return [] }
            var entries: [HistoryEntry] = []
            try repository.walkHistory(from: head.id) { commit in
                if let path {
                    let blob = try repository.blobID(at: path.fileName, inCommit: commit.id)
                    let parents = try commit.parentIDs.map { try repository.blobID(at: path.fileName, inCommit: $0) }
                    if parents.contains(blob) { return true }
                    if parents.isEmpty, blob == nil { return true }
                    let kind: FileChange.Kind =
                        blob == nil
                        ? .deleted
                        : parents.allSatisfy { $0 == nil } ? .added : .modified
                    entries.append(HistoryEntry(checkpoint: Checkpoint(commit), change: kind))
                } else {
                    entries.append(HistoryEntry(checkpoint: Checkpoint(commit), change: nil))
                }
                return limit.map { entries.count < $0 } ?? true
            }
            return entries
        }
    }
}
