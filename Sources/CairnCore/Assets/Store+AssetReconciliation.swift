import CairnMerge
import Git
import GitFormat
import Logging

extension Store {
    /// Before a sync pushes: for every document with asset fields that differs from the
    /// remote's tip, the Git LFS pointers its fields make (a document committed by another
    /// git tool gets its pointers), and no field pointing to an asset that is gone — one this
    /// device does not hold, the remote's tip does not name and the server does not have: it
    /// was deleted on another device while this one kept, changed or brought back the
    /// document. Such a field is cleared (null) and said so in the commit. One commit on top
    /// of `result.head`, which the push sends; nothing when all is in order. The caller holds
    /// the lock.
    func reconcileAssets(
        with theirs: ObjectID?, remote: RemoteURL, credentials: Credentials?, options: SyncOptions,
        result: inout SyncResult
    ) throws {
        guard let head = result.head?.objectID, !codec.isEncrypted else { return }
        let set = try schemaSet()
        guard set.hasAssets else { return }
        let tree = try repository.commit(head).treeID
        let theirTree = try theirs.map { try repository.commit($0).treeID }
        var documents: Set<DocumentPath> = []
        for difference in try repository.differences(among: [theirTree, tree]) {
            if let pointer = StoreLayout.assetField(ofPointerFile: difference.path) {
                documents.insert(pointer.document)
            } else if let document = DocumentPath(fileName: difference.path), set.kind(of: document)?.assets.isEmpty == false {
                documents.insert(document)
            }
        }
        guard !documents.isEmpty else { return }
        var values: [DocumentPath: JSONValue] = [:]
        for document in documents {
            guard let entry = try repository.entry(at: document.fileName, inTree: tree), !entry.isTree else { continue }
            values[document] = try parseStored(repository.blobContent(entry.id), file: document.fileName)
        }
        // Assets neither here nor named by the remote's tip: the server is asked about them.
        let named = try theirTree.map { try AssetSweep.oids(in: repository, tree: $0) } ?? []
        var unknown: [String: AssetReference] = [:]
        for (document, value) in values {
            let references = set.kind(of: document)?.assetReferences(in: value) ?? [:]
            for reference in references.values where !assetObjects.contains(reference.oid) && !named.contains(reference.oid) {
                unknown[reference.oid] = reference
            }
        }
        let gone = unknown.isEmpty ? [] : try assetsGone(Array(unknown.values), from: remote, credentials: credentials, options: options)
        var updates: [TreeUpdate] = []
        var cleared: [(document: DocumentPath, field: String, oid: String)] = []
        for document in documents.sorted() {
            var value = values[document]
            if case .object(var fields)? = value, let kind = set.kind(of: document) {
                for (field, reference) in kind.assetReferences(in: .object(fields)).sorted(by: { $0.key < $1.key })
                where gone.contains(reference.oid) {
                    fields[field] = .null
                    cleared.append((document, field, reference.oid))
                }
                if .object(fields) != value {
                    value = .object(fields)
                    updates.append(
                        .upsert(
                            path: document.fileName,
                            id: try repository.writeBlob(codec.stored(JSONValue.object(fields).canonicalBytes(), at: document.fileName)),
                            mode: 0o100644))
                }
            }
            let expected = set.assetPointers(of: value, at: document)
            let present = try repository.assetPointerFiles(of: document, inTree: tree)
            for pointer in present.keys.sorted() where expected[pointer] == nil {
                updates.append(.remove(path: pointer))
            }
            for (pointer, bytes) in expected.sorted(by: { $0.key < $1.key }) {
                if let id = present[pointer], try repository.blobContent(id) == bytes { continue }
                updates.append(.upsert(path: pointer, id: try repository.writeBlob(bytes), mode: 0o100644))
            }
        }
        guard !updates.isEmpty else { return }
        var message =
            cleared.isEmpty
            ? "Sync: asset pointers made again from their documents\n"
            : "Sync: \(cleared.count) asset field\(cleared.count == 1 ? "" : "s") cleared: the asset was deleted on another device and no one holds it\n"
        if !cleared.isEmpty {
            message += "\n" + cleared.map { "\($0.document) \($0.field): \($0.oid)\n" }.joined()
        }
        let signature = signature()
        let commit = try repository.createCommit(
            tree: repository.updateTree(tree, with: updates).id, parents: [head], message: withDeviceTrailers(message),
            author: signature, committer: signature, updating: nil)
        let files = try moveWorkingTree(from: head, to: commit)
        result.head = CheckpointID(commit)
        result.clearedAssets += cleared.map { ($0.document, $0.field) }
        result.changedFiles = Array(Set(result.changedFiles + files)).sorted()
        logger.notice("assets reconciled", metadata: ["commit": "\(commit.short)", "cleared": "\(cleared.count)"])
    }

    /// Which of `references` the remote's asset server does not have (a definite answer: a
    /// server that cannot be asked is an error, never "gone").
    func assetsGone(
        _ references: [AssetReference], from remote: RemoteURL, credentials: Credentials?,
        options: SyncOptions
    ) throws -> Set<String> {
        switch try assetServer(for: remote, credentials: credentials, timeout: options.networkTimeout) {
        case .folder(let storage):
            return Set(references.map(\.oid).filter { !storage.contains($0) })
        case .lfs(let client):
            let answers = try options.retryingNetworkFailures(logger: logger) { try client.batch("download", references) }
            var gone: Set<String> = []
            for reference in references {
                if case .failed(404, _)? = answers[reference.oid] { gone.insert(reference.oid) }
            }
            return gone
        }
    }
}
