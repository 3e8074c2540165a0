import CairnMerge
import Git
import GitFormat
import Logging

extension Store {
    /// Records what the user decided for the documents the last sync held because they are
    /// pinned to a version of `collection`/`item` the server no longer holds as its latest (or
    /// at all). Never touches the network: it reads what the last sync found.
    ///
    /// - ``ContentDecision/submitAnyway``: an empty checkpoint whose message says so, with a
    ///   trailer `Cairn-Content-Decision: submit-anyway <collection>/<item> <pinned commit>` per
    ///   held version; the next sync finds it among the checkpoints it pushes and lets those
    ///   documents go. Refused for a deleted item: its answers cannot be submitted.
    /// - ``ContentDecision/discard``: every document pinned to a held version goes back to the
    ///   remote's version (deleted where the remote has none, append-only or not: it was never
    ///   pushed), in one checkpoint with the trailer `Cairn-Content-Decision: discard …`. The
    ///   answers stay in the store's history. Downloading the item again is the app's part.
    ///
    /// Writes made before are checkpointed first, in a checkpoint of their own.
    @discardableResult
    public func decide(_ decision: ContentDecision, collection: String, item: String) throws(CairnError) -> CheckpointResult {
        for (id, what) in [(collection, "collection name"), (item, "item ID")] {
            do {
                try DocumentID.validate(id, in: id)
            } catch {
                throw CairnError(.invalidInput, "invalid \(what): \(error.description); nothing was recorded", cause: error)
            }
        }
        let name = "\(collection)/\(item)"
        return try locked("cannot record the decision for \(name)") { () throws -> CheckpointResult in
            let held = try heldPins().filter { $0.collection == collection && $0.item == item }
            guard !held.isEmpty else {
                throw CairnError(
                    .notFound,
                    "nothing pinned to \(name) is held: a sync holds the documents pinned to content that changed on the server, and names them; nothing was recorded"
                )
            }
            let versions = held.map(\.pinnedVersion)
            let trailers = versions.map { decision.trailerLine(collection: collection, item: item, version: $0) }.joined(separator: "\n")
            let shown = versions.map {
                PinCheck.versionText($0, number: contentVersionNumber(collection: collection, item: item, version: $0))
            }
            .joined(separator: ", ")
            if decision == .submitAnyway, held.contains(where: { $0.state == .deleted }) {
                throw CairnError(
                    .refused,
                    "\(name) was deleted on the server, so the answers to it cannot be submitted; they stay here, flagged",
                    remedy: .discardAnswers(collection: collection, item: item))
            }
            _ = try commitPending(message: nil)
            let result: CheckpointResult
            switch decision {
            case .submitAnyway:
                let server = held.compactMap(\.serverVersion).first.map {
                    PinCheck.versionText($0, number: contentVersionNumber(collection: collection, item: item, version: $0))
                }
                result = try commitDecision(
                    """
                    Content: submit anyway the answers to \(name)

                    They answer \(shown)\(server.map { "; the server holds \($0)" } ?? "").

                    \(trailers)
                    """)
            case .discard:
                let restored = try restoreHeldDocuments(collection: collection, item: item, versions: Set(versions))
                let message = """
                    Content: discard the answers to \(name)

                    \(restored.count) document\(restored.count == 1 ? "" : "s") pinned to \(shown) back to the remote's version; the answers stay in history.

                    \(trailers)
                    """
                let committed = try commitPending(message: message)
                result = committed.id == nil ? try commitDecision(message) : committed
            }
            try recordHeldPins(try heldPins().filter { !($0.collection == collection && $0.item == item) })
            logger.debug(
                "content decision",
                metadata: ["decision": "\(decision.rawValue)", "item": "\(name)", "commit": "\(result.id?.short ?? "-")"])
            return result
        }
    }

    /// Puts every document pinned to one of `versions` of the item back to the remote's
    /// version, recorded as pending; returns them. The caller holds the lock.
    private func restoreHeldDocuments(collection: String, item: String, versions: Set<String>) throws -> [DocumentPath] {
        let remoteTree = try repository.reference(Self.remoteBranch).map { try repository.commit($0).treeID }
        let documents = try unsyncedPins().filter { document in
            document.collection == collection && document.item == item && document.version.map(versions.contains) == true
        }.map(\.path)
        guard !documents.isEmpty else { return [] }
        try journal.append(documents.map(\.fileName))
        try recountingAfter(documents) {
            for path in documents {
                if let remoteTree, let entry = try repository.entry(at: path.fileName, inTree: remoteTree) {
                    try FileSystem.writeAtomically(try repository.blobContent(entry.id), to: absolute(path.fileName))
                } else {
                    _ = try FileSystem.removeFile(absolute(path.fileName))
                    FileSystem.removeEmptyFolders(from: absolute(path.collection.description), upTo: folder)
                }
            }
        }
        return documents
    }

    /// An empty checkpoint that records a decision: the tree as it is, the message given (the
    /// device's trailer added). The caller holds the lock, with nothing pending.
    private func commitDecision(_ message: String) throws -> CheckpointResult {
        guard let head = try repository.headCommit() else {
            throw CairnError(.notFound, "the store of user \(uid) has no checkpoint to record a decision after")
        }
        let signature = signature()
        let text = try withDeviceTrailers(message)
        let commit = try repository.createCommit(
            tree: head.treeID, parents: [head.id], message: text,
            author: signature, committer: signature, updating: nil)
        let summary = text.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        try repository.setReference(branchReference, to: commit, expecting: head.id, message: "commit: \(summary)")
        noteWhatCairnLeft()
        return CheckpointResult(id: CheckpointID(commit), changes: [])
    }
}
