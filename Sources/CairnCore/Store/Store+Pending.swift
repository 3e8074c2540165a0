import Git
import GitFormat

extension Store {
    /// The paths the journal records (see ``PendingJournal``) that can name a file of the
    /// working tree. A record cut short (the process killed mid-write, a full disk) becomes a
    /// line of its own at the next append, and it may end where a folder's name does
    /// (`users/u1/books`): taken as a file, the checkpoint would try to make that folder a
    /// file and fail every time after. A line ending in `/` is left out, and so is one naming
    /// a folder of the working tree, unless the last checkpoint has a file there (a file a
    /// folder replaced: it is deleted, as before).
    func pendingFiles() throws(CairnError) -> [String] {
        let recorded = try journal.paths()
        let folders = recorded.filter { $0.hasSuffix("/") || FileSystem.kind(absolute($0)) == .folder }
        guard !folders.isEmpty else { return recorded }
        let head = try translatingErrors("cannot read the last checkpoint") { try repository.reference(branchReference) }
        var left = Set<String>()
        for path in folders {
            let file = try translatingErrors("cannot read the last checkpoint") { () throws -> ObjectID? in
                guard let head, !path.hasSuffix("/") else { return nil }
                return try repository.blobID(at: path, inCommit: head)
            }
            if file == nil { left.insert(path) }
        }
        return recorded.filter { !left.contains($0) }
    }
}
