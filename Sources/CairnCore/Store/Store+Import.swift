import CairnMerge
import Git
import GitFormat
import Logging

extension Store {
    /// The trailer that records an import in its checkpoint: `Cairn-Imported: <uid> <commit>`.
    static let importTrailer = "Cairn-Imported"

    /// Takes another local user's progress into this store — an anonymous user's, after the
    /// person signs in — explicitly, never on its own: every document of `other` is moved
    /// from `users/<other>/…` to `users/<uid>/…` and merged with this store's under the
    /// policies (both sides' attempts kept, counters added, the later section mark winning),
    /// in one checkpoint whose message records what was imported and from which commit.
    ///
    /// Importing the same user again takes only what changed there since, merged over the
    /// last import. The other store is read, never changed: it stays until deleted.
    public func importProgress(of other: Store) throws(CairnError) -> ImportResult {
        guard other.uid != uid else {
            throw CairnError(.invalidInput, "a store cannot import itself; name another user")
        }
        return try locked("cannot import the progress of \(other.uid)") { () throws -> ImportResult in
            try commitPending(message: nil)
            let pending = try other.status().pending.count
            if pending > 0 {
                throw CairnError(
                    .invalidInput, "the store of \(other.uid) has \(pending) document\(pending == 1 ? "" : "s") not checkpointed",
                    remedy: .checkpointBeforeImport(uid: other.uid))
            }
            let reference = StoreLayout.importReference(of: other.uid)
            do throws(GitError) {
                try Remote(repository: repository, url: other.folder).fetch(["+refs/heads/\(Self.branch):\(reference)"])
            } catch {
                throw CairnError.git(error, doing: "cannot read the store of \(other.uid)")
            }
            guard let tip = try repository.reference(reference), let head = try repository.reference(branchReference) else {
                throw CairnError(.notFound, "the store of \(other.uid) has no checkpoint to import")
            }
            let previous = try lastImport(of: other.uid)
            if previous == tip {
                return ImportResult(from: other.uid, checkpoint: nil, documents: [], conflicts: [])
            }
            let reader = StoreTreeReader(repository: repository, codec: codec)
            let (theirVersion, ourVersion) = (
                try reader.version(repository.commit(tip).treeID), try reader.version(repository.commit(head).treeID)
            )
            if theirVersion > ourVersion {
                throw CairnError(
                    .invalidInput, "the store of \(other.uid) is at schema version \(theirVersion), this one at \(ourVersion)",
                    remedy: .migrateBeforeImport)
            }
            let headTree = try repository.commit(head).treeID
            let theirs = try rewrittenTree(of: tip, from: other.uid, readWith: other.codec, over: headTree)
            let base =
                try previous.map { try rewrittenTree(of: $0, from: other.uid, readWith: other.codec, over: headTree) }
                ?? rewrittenTree(of: nil, from: other.uid, readWith: other.codec, over: headTree)
            let outcome = try StoreMerge(repository: repository, schemaSet: schemaSet(), codec: codec).merge(
                base: base, ours: headTree, theirs: theirs)
            let brought = try repository.differences(among: [base, theirs]).compactMap { DocumentPath(fileName: $0.path) }
            // Recorded even when nothing of this store changes (its documents already held the
            // other's, or the policies kept its own): the next import starts from here, and
            // what the policies decided is written down.
            var message = "Import the progress of \(other.uid): \(brought.count) document\(brought.count == 1 ? "" : "s")"
            message += outcome.mergedDocuments > 0 ? " (\(outcome.mergedDocuments) merged with this user's)\n" : "\n"
            let conflicts = try conflictText(outcome.conflicts)
            if !outcome.conflicts.isEmpty {
                message += "\nDecided by the policies (the replaced values stay in the history of both stores):\n"
                message += conflicts.lines.map { $0 + "\n" }.joined()
            }
            message += "\n\(Self.importTrailer): \(other.uid) \(tip.hex)\n"
            message += conflicts.trailers.map { $0 + "\n" }.joined()
            // The assets of the documents brought come with them, from the other store.
            try copyAssets(pointedToBy: outcome.tree, from: other)
            let signature = signature()
            let commit = try repository.createCommit(
                tree: outcome.tree, parents: [head], message: withDeviceTrailers(message),
                author: signature, committer: signature, updating: nil)
            let changed = try moveWorkingTree(from: head, to: commit)
            logger.debug("import", metadata: ["from": "\(other.uid)", "documents": "\(brought.count)", "commit": "\(commit.short)"])
            return ImportResult(
                from: other.uid, checkpoint: CheckpointID(commit), documents: brought, conflicts: outcome.conflicts,
                changedFiles: changed.sorted())
        }
    }

    /// The commit of `other` the last import of it took, from the history's trailers.
    private func lastImport(of other: String) throws -> ObjectID? {
        guard let head = try repository.reference(branchReference) else { return nil }
        var found: ObjectID?
        let prefix = "\(Self.importTrailer): \(other) "
        try repository.walkHistory(from: head) { commit in
            for line in commit.message.split(separator: "\n") where line.hasPrefix(prefix) {
                found = ObjectID(hex: String(line.dropFirst(prefix.count)))
            }
            return found == nil
        }
        return found
    }

    /// A tree holding this store's own files (`.gitattributes`, `.cairn/`) from `ours` and the
    /// documents of `other` at `commit` (none for nil) moved under this user, migrated to this
    /// store's schema version when theirs is older. Their documents are read with their
    /// store's codec and written with this one's (a path sealed in is a path changed).
    private func rewrittenTree(of commit: ObjectID?, from other: String, readWith theirCodec: DocumentCodec, over ours: ObjectID) throws
        -> ObjectID
    {
        var updates: [TreeUpdate] = []
        for file in try repository.differences(among: [ours, nil]) where !file.path.hasPrefix(StoreLayout.usersFolder + "/") {
            if let entry = file.entries[0] { updates.append(.upsert(path: file.path, id: entry.id, mode: entry.mode)) }
        }
        if let commit {
            let reader = StoreTreeReader(repository: repository, codec: theirCodec)
            let tree = try repository.commit(commit).treeID
            var documents: [DocumentPath: JSONValue] = [:]
            for (path, value) in try reader.documents(tree) where path.segments[1] == other {
                var segments = path.segments
                segments[1] = uid
                documents[try DocumentPath(segments.joined(separator: "/"))] = value
            }
            let migrations = try schemaSet().migrations
            if try reader.version(tree) < migrations.version {
                documents = try migrations.migrate(documents, from: reader.version(tree))
            }
            for (path, value) in documents {
                updates.append(
                    .upsert(
                        path: path.fileName, id: try repository.writeBlob(codec.stored(value.canonicalBytes(), at: path.fileName)),
                        mode: 0o100644))
            }
        }
        return try repository.updateTree(ObjectID.emptyTree, with: updates).id
    }
}
