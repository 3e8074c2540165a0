import CairnSystem
import Git

extension Store {
    /// The documents written since the last checkpoint. Without `scan` only the paths the
    /// store recorded are compared (cheap); with `scan`, every file of the working tree.
    public func status(scan: Bool = false) throws(CairnError) -> StoreStatus {
        try translatingErrors("cannot read the status") { () throws -> StoreStatus in
            let head = try repository.reference(branchReference).map { try repository.commit($0) }
            var changes: [String: FileChange.Kind] = [:]
            for path in try pendingFiles() {
                let before = try head.flatMap { (commit) throws(GitError) in try repository.blobID(at: path, inCommit: commit.id) }
                let exists = FileSystem.kind(absolute(path)) == .file
                switch (before, exists) {
                case (nil, true): changes[path] = .added
                case (.some, false): changes[path] = .deleted
                case (.some(let old), true):
                    if try repository.hashFile(atPath: absolute(path)) != old { changes[path] = .modified }
                default: break
                }
            }
            // After another git tool changed the store, the next checkpoint compares every
            // file: so does the status, for the files a checkpoint would take.
            let otherTools = try !scan && changedByOtherGitTools()
            if scan || otherTools {
                for change in try workingTreeChanges(cleaning: false)
                where changes[change.path] == nil && (scan || isStoreFile(change.path)) {
                    changes[change.path] = change.kind
                }
            }
            let pending = changes.map { FileChange(path: $0.key, kind: $0.value) }.sorted()
            return StoreStatus(head: head.map(Checkpoint.init), pending: pending, headElsewhere: try headElsewhere())
        }
    }
}
