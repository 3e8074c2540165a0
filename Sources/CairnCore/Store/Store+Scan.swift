import CairnMerge
import CairnSystem
import Git
import GitFormat

extension Store {
    /// Compares every file of the working tree with the last checkpoint, as `git status`
    /// compares them with HEAD: a file whose index entry holds the checkpoint's blob and the
    /// file's stat data is unchanged, any other is hashed. It compares with the checkpoint
    /// rather than the index because git commands move the two apart (`git add`, `git reset
    /// --soft`), and what a checkpoint must commit is what differs from the last one. Its
    /// cost follows the size of the store: it runs only when asked for (`--scan`) or after
    /// another git tool changed the store. With `cleaning`, which only a holder of the lock
    /// may ask for, temporary files of killed writes are removed.
    func workingTreeChanges(cleaning: Bool) throws -> [FileChange] {
        var committed: [String: ObjectID] = [:]
        if let head = try repository.reference(branchReference) {
            for file in try repository.differences(among: [repository.commit(head).treeID, nil]) {
                if let entry = file.entries[0] { committed[file.path] = entry.id }
            }
        }
        var staged: [String: IndexEntry] = [:]
        for entry in try repository.openIndex().allEntries() where entry.stage == 0 {
            staged[entry.path] = entry
        }
        // The folders the last checkpoint has documents in: one of them that cannot be listed
        // stops the scan; another is passed over, as it hides nothing committed.
        var trackedFolders: Set<String> = [""]
        for path in committed.keys {
            var folder = Substring(path)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                if !trackedFolders.insert(String(folder)).inserted { break }
            }
        }
        var changes: [FileChange] = []
        try walk("", cleaning: cleaning, tracked: trackedFolders) { path, kind in
            guard let id = committed.removeValue(forKey: path) else {
                changes.append(FileChange(path: path, kind: .added))
                return
            }
            guard kind == .file else {
                changes.append(FileChange(path: path, kind: .modified))
                return
            }
            if let entry = staged[path], entry.id == id,
                try IndexEntry.forFile(atPath: absolute(path), path: path, id: id).matches(entry)
            {
                return
            }
            if try repository.hashFile(atPath: absolute(path)) != id {
                changes.append(FileChange(path: path, kind: .modified))
            }
        }
        changes += committed.keys.map { FileChange(path: $0, kind: .deleted) }
        return changes.sorted()
    }

    /// Whether a file of the working tree is one a store holds: a document of its user, or
    /// the store's own `.cairn/` files and `.gitattributes`.
    func isStoreFile(_ path: String) -> Bool {
        if StoreLayout.isOwnFile(path) { return true }
        guard let document = DocumentPath(fileName: path) else { return false }
        return StoreLayout.isOwned(document, by: uid)
    }

    /// Calls `body` for every file below the folder `relative` (the store's `.git` left out),
    /// with what kind of file it is, and temporary files of writes left out — with `cleaning`,
    /// removed: they are what a write killed before its rename leaves. A folder of `tracked`
    /// that cannot be listed, or an entry that cannot be looked at, stops the walk: taken for
    /// nothing, their documents would be reported deleted.
    private func walk(
        _ relative: String, cleaning: Bool, tracked: Set<String>,
        _ body: (String, FileSystem.Kind) throws -> Void
    ) throws {
        for (name, listed) in try entries(in: relative, tracked: tracked.contains(relative)) {
            if relative.isEmpty, name == ".git" { continue }
            if name.hasPrefix(StoreLayout.temporaryFilePrefix) {
                if cleaning { try FileSystem.removeFile(absolute(relative.isEmpty ? name : relative + "/" + name)) }
                continue
            }
            let path = relative.isEmpty ? name : relative + "/" + name
            switch try listed ?? FileSystem.existingKind(absolute(path)) {
            case .folder: try walk(path, cleaning: cleaning, tracked: tracked, body)
            case .file: try body(path, .file)
            case .other: try body(path, .other)
            case nil: break
            }
        }
    }

    /// The entries of the folder `relative`, sorted by name, each with its kind where the
    /// listing gives it; none when the folder went (or became a file) since its parent was
    /// listed. Any other failure (its permissions, an I/O error, a process out of
    /// descriptors) is thrown for a folder the last checkpoint has documents in, and passes
    /// over any other.
    private func entries(in relative: String, tracked: Bool) throws(CairnError) -> [(name: String, kind: FileSystem.Kind?)] {
        let folder = absolute(relative)
        // Only folders a listing found are entered (no link below the store is followed); the
        // store's own folder is listed wherever its path leads.
        switch Syscalls.entries(of: folder, followingLink: relative.isEmpty) {
        case .success(let entries):
            return entries.sorted { $0.name < $1.name }
        case .failure(let error) where error == .noSuchFile || error == .notAFolder || !tracked:
            return []
        case .failure(let error):
            let advice =
                error == .accessDenied || error == .notPermitted
                ? "make the folder readable and searchable by this user, then try again"
                : FileSystem.isDiskFailure(error.code) ? "check the disk, then try again" : "try again"
            throw CairnError(
                .io,
                "cannot list \(folder): \(error.description); the working tree cannot be compared with the last checkpoint, so nothing was committed — \(advice)",
                cause: error.posixError)
        }
    }
}
