import CairnSystem
import Git
import GitFormat

extension Store {
    /// The paths the journal records (see ``PendingJournal``) that can name a file of the
    /// working tree (see ``droppingFolderNames(_:)``).
    func pendingFiles() throws(CairnError) -> [String] {
        try droppingFolderNames(try journal.paths())
    }

    /// `paths` without those that name a folder rather than a file. A journal record cut
    /// short (the process killed mid-write, a full disk) becomes a line of its own at the next
    /// append, and it may end where a folder's name does (`users/u1/books`): taken as a file,
    /// the checkpoint would update a folder as a file beside the files in it, and fail every
    /// time after. A path is left out when it ends in `/`, when another path lies below it, or
    /// when it is a folder of the working tree — unless the last checkpoint has a file there
    /// (a file a folder replaced: it is deleted, as before).
    func droppingFolderNames(_ paths: [String]) throws(CairnError) -> [String] {
        var above = Set<Substring>()
        for path in paths {
            var folder = path[...]
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                if !above.insert(folder).inserted { break }
            }
        }
        // A document's file ends in `.json`, and no ID may: such a path is never a folder.
        let candidates = paths.filter { path in
            path.hasSuffix("/") || above.contains(path[...])
                || (!path.hasSuffix(".json") && FileSystem.kind(absolute(path)) == .folder)
        }
        guard !candidates.isEmpty else { return paths }
        let left = try translatingErrors("cannot read the last checkpoint") { () throws -> Set<String> in
            let head = try repository.reference(branchReference)
            var left = Set<String>()
            for path in candidates {
                let file = try head.flatMap { (head) throws -> ObjectID? in
                    path.hasSuffix("/") ? nil : try repository.blobID(at: path, inCommit: head)
                }
                if file == nil { left.insert(path) }
            }
            return left
        }
        return paths.filter { !left.contains($0) }
    }
}
