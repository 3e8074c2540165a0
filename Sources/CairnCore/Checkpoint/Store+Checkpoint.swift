import CairnMerge
import CairnSystem
import Git
import GitFormat
import Logging

extension Store {
    /// Commits the documents written since the last checkpoint.
    ///
    /// Only the recorded paths are staged (their blobs written, their index entries updated)
    /// and only the folders above them get new trees, so the cost follows the number of
    /// changed documents, not the size of the store. With `scan`, hand edits of the working
    /// tree are found too, by comparing every file with the index; a hand-edited document is
    /// checked and rewritten in canonical form, and a file that is not a document of this
    /// user stops the checkpoint with nothing committed.
    @discardableResult
    public func checkpoint(message: String? = nil, scan: Bool = false) throws(CairnError) -> CheckpointResult {
        try locked("cannot checkpoint") { () throws -> CheckpointResult in
            if scan {
                return try commitScanned(message: message, strict: true, afterOtherGitTools: changedByOtherGitTools())
            }
            return try commitPending(message: message)
        }
    }

    /// Stages the pending paths, commits if the tree changed, then forgets them. The caller
    /// holds the lock.
    ///
    /// Order matters for crashes: the new objects and the commit are written (one pack)
    /// before the index, the index before the branch moves, and the journal is cleared last, so a process killed at any point
    /// leaves HEAD at the old or the new commit, an index whose objects exist, and a journal
    /// that the next checkpoint completes.
    @discardableResult
    package func commitPending(message: String?) throws -> CheckpointResult {
        // After a git command in the store, the working tree may differ from the last
        // checkpoint in files the journal never heard of: every file is compared once.
        if try changedByOtherGitTools() {
            return try commitScanned(message: message, strict: false, afterOtherGitTools: true)
        }
        return try commitRecorded(message: message)
    }

    /// Compares every file with the index, records what differs, computes again the derived
    /// fields of what it found — and, `afterOtherGitTools`, of what another git tool committed
    /// or pulled since Cairn's last checkpoint — then commits, in one pass. `strict`: a file
    /// that is no document of the user stops it (`checkpoint --scan`); else it is passed
    /// over. The caller holds the lock.
    private func commitScanned(message: String?, strict: Bool, afterOtherGitTools: Bool) throws -> CheckpointResult {
        var committed: [String] = []
        if afterOtherGitTools {
            // The schema set too may be another than the one read (a schema file rewritten in
            // place leaves its folder's stamp as it was).
            loadedSchemaSet = nil
            committed = try committedByOtherGitTools()
        }
        let scanned = try scannedPaths(strict: strict)
        try journal.append(scanned)
        // Derived fields left stale by hand edits and other tools (Store+Derivations.swift).
        let corrections = try correctDerivedFields(ofScanned: scanned + committed)
        return try corrections.isEmpty ? commitRecorded(message: message) : commitRecorded(message: message, corrections: corrections)
    }

    /// Commits the pending paths as recorded, and notes what Cairn left. The caller holds the lock.
    func commitRecorded(message: String?) throws -> CheckpointResult {
        // The new blobs and trees and the commit go to disk as one pack.
        let result = try repository.packingWrites { try commitPendingObjects(message: message) }
        noteWhatCairnLeft()
        return result
    }

    private func commitPendingObjects(message: String?) throws -> CheckpointResult {
        let recorded = try journal.paths()
        guard !recorded.isEmpty else { return CheckpointResult(id: nil, changes: []) }
        // The asset pointers of the pending documents, derived from them (Store+Assets.swift).
        let pointers = try deriveAssetPointers(of: recorded)
        let paths = try droppingFolderNames(recorded + pointers.filter { !recorded.contains($0) })
        let head = try repository.headCommit()
        let index = try repository.openIndex()
        // Every pending path is put as it is now; what it was comes back from the tree
        // update, which reads the old folders anyway.
        var updates: [TreeUpdate] = []
        var staged: [String: ObjectID] = [:]
        for path in paths {
            // An asset's pointer is staged as its document makes it, never read from the file:
            // git-lfs may have put the asset's own bytes there (its smudge filter).
            let derived = try StoreLayout.assetField(ofPointerFile: path).map { try assetPointer(of: $0.document, field: $0.field) }
            // A path that cannot be looked at stops the checkpoint: taken for nothing, its
            // document would be committed as deleted.
            if try FileSystem.existingKind(absolute(path)) == .file, derived != .some(nil),
                let bytes = try derived ?? FileSystem.read(absolute(path))
            {
                let id = try repository.writeBlob(bytes)
                let entry = try IndexEntry.forFile(atPath: absolute(path), path: path, id: id)
                try index.stage(entry)
                staged[path] = id
                updates.append(.upsert(path: path, id: id, mode: entry.mode))
            } else {
                try index.remove(path: path)
                updates.append(.remove(path: path))
            }
        }
        let baseline = head?.treeID ?? ObjectID.emptyTree
        let updated = try repository.updateTree(baseline, with: updates)
        let tree = updated.id
        var changes: [FileChange] = []
        for path in paths {
            switch (updated.previous[path], staged[path]) {
            case (nil, .some): changes.append(FileChange(path: path, kind: .added))
            case (.some, nil): changes.append(FileChange(path: path, kind: .deleted))
            case (.some(let old), .some(let new)) where old != new: changes.append(FileChange(path: path, kind: .modified))
            default: break
            }
        }
        changes.sort()
        // The objects go to disk before the index that names them: a process killed between
        // the two must not leave an index whose blobs are missing (git fsck fails on that).
        // The commit joins their pack; the branch moves once the index is written.
        guard tree != head?.treeID else {
            try repository.writePendingObjects()
            try index.write()
            try journal.clear()
            return CheckpointResult(id: nil, changes: [])
        }
        let signature = signature()
        let text = try withDeviceTrailers(message ?? Self.describe(changes))
        let commit = try repository.createCommit(
            tree: tree, parents: head.map { [$0.id] } ?? [], message: text,
            author: signature, committer: signature, updating: nil)
        try index.write()
        let summary = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        try repository.setReference(
            branchReference, to: commit, expecting: head?.id,
            message: "commit\(head == nil ? " (initial)" : ""): \(summary)")
        try journal.clear()
        logger.debug("checkpoint", metadata: ["commit": "\(commit.short)", "documents": "\(changes.count)"])
        return CheckpointResult(id: CheckpointID(commit), changes: changes)
    }

    /// The default message: a summary line, then the documents, as `git log` will show them.
    static func describe(_ changes: [FileChange]) -> String {
        var text = "Checkpoint: " + CheckpointResult.summarize(changes) + "\n"
        if !changes.isEmpty {
            text += "\n"
            let shown = 50
            for change in changes.prefix(shown) {
                text += "\(change.kind.rawValue) \(change.displayPath)\n"
            }
            if changes.count > shown { text += "… and \(changes.count - shown) more\n" }
        }
        return text
    }

    /// The files a scan finds changed against the last checkpoint, each checked: documents
    /// of this user (rewritten canonical when hand-edited), or the store's own `.cairn/`
    /// files. Any other file stops a `strict` scan (one the user asked for), and is left
    /// alone, untracked, by the scan that follows another git tool's changes.
    func scannedPaths(strict: Bool = true) throws -> [String] {
        var paths: [String] = []
        for change in try workingTreeChanges(cleaning: true) {
            let path = change.path
            if StoreLayout.isOwnFile(path) {
                paths.append(path)
                continue
            }
            guard isStoreFile(path), FileSystem.kind(absolute(path)) != .other else {
                if !strict { continue }
                throw CairnError(
                    .invalidInput,
                    "checkpoint --scan: \(path) is not a document of user \(uid) (documents are users/\(uid).json and users/\(uid)/…/ID.json, regular files); move it out of the store or delete it — nothing was committed"
                )
            }
            if change.kind != .deleted, let bytes = try FileSystem.read(absolute(path)) {
                // In an encrypted store a file sealed by the store is opened; one written in
                // the clear by hand is sealed below.
                var json = bytes
                if codec.isEncrypted, DocumentCipher.isSealed(bytes) {
                    do {
                        json = try codec.json(bytes, at: path)
                    } catch {
                        throw CairnError(.invalidInput, "checkpoint --scan: \(error.message) — nothing was committed", cause: error)
                    }
                }
                let value: JSONValue
                do {
                    value = try JSONParser().parse(json)
                } catch {
                    throw CairnError(
                        .invalidInput, "checkpoint --scan: \(path): \(error.description); fix the file — nothing was committed",
                        cause: error)
                }
                guard case .object = value else {
                    throw CairnError(
                        .invalidInput,
                        "checkpoint --scan: \(path) holds a JSON \(value.typeName), and a document is an object; fix the file — nothing was committed"
                    )
                }
                let stored = try codec.stored(value.canonicalBytes(), at: path)
                if stored != bytes {
                    try FileSystem.writeAtomically(stored, to: absolute(path))
                }
            }
            paths.append(path)
        }
        return paths
    }
}
