import Git

extension Store {
    /// Compares every file of the working tree with the index, as `git status` does: a file
    /// whose stat data matches its entry is unchanged, any other is hashed. Its cost follows
    /// the size of the store: it runs only when asked for (`--scan`). With `cleaning`, which
    /// only a holder of the lock may ask for, temporary files of killed writes are removed.
    func workingTreeChanges(cleaning: Bool) throws -> [FileChange] {
        var staged: [String: IndexEntry] = [:]
        for entry in try repository.openIndex().allEntries() {
            staged[entry.path] = entry
        }
        var changes: [FileChange] = []
        try walk("", cleaning: cleaning) { path, kind in
            guard let entry = staged.removeValue(forKey: path) else {
                changes.append(FileChange(path: path, kind: .added))
                return
            }
            guard kind == .file else {
                changes.append(FileChange(path: path, kind: .modified))
                return
            }
            let now = try IndexEntry.forFile(atPath: absolute(path), path: path, id: entry.id)
            if !now.matches(entry), try repository.hashFile(atPath: absolute(path)) != entry.id {
                changes.append(FileChange(path: path, kind: .modified))
            }
        }
        changes += staged.keys.map { FileChange(path: $0, kind: .deleted) }
        return changes.sorted()
    }

    /// Calls `body` for every file below the folder `relative` (the store's `.git` left out),
    /// with what kind of file it is, and temporary files of writes left out — with `cleaning`,
    /// removed: they are what a write killed before its rename leaves.
    private func walk(_ relative: String, cleaning: Bool, _ body: (String, FileSystem.Kind) throws -> Void) throws {
        for name in FileSystem.names(in: absolute(relative)).sorted() {
            if relative.isEmpty, name == ".git" { continue }
            if name.hasPrefix(".cairn-tmp-") {
                if cleaning { try FileSystem.removeFile(absolute(relative.isEmpty ? name : relative + "/" + name)) }
                continue
            }
            let path = relative.isEmpty ? name : relative + "/" + name
            switch FileSystem.kind(absolute(path)) {
            case .folder: try walk(path, cleaning: cleaning, body)
            case .file: try body(path, .file)
            case .other: try body(path, .other)
            case nil: break
            }
        }
    }
}
