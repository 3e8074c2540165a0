import Git

extension Store {
    /// The documents written since the last checkpoint. Without `scan` only the paths the
    /// store recorded are compared (cheap); with `scan`, every file of the working tree.
    public func status(scan: Bool = false) throws(CairnError) -> StoreStatus {
        try translatingErrors("cannot read the status") { () throws -> StoreStatus in
            let head = try repository.headCommit()
            var changes: [String: FileChange.Kind] = [:]
            for path in try journal.paths() {
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
            if scan {
                for change in try workingTreeChanges(cleaning: false) where changes[change.path] == nil {
                    changes[change.path] = change.kind
                }
            }
            let pending = changes.map { FileChange(path: $0.key, kind: $0.value) }.sorted()
            return StoreStatus(head: head, pending: pending)
        }
    }
}
