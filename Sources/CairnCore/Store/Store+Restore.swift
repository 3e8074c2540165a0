import CairnMerge
import CairnSystem
import Git
import GitFormat

extension Store {
    /// The trailer of a restore's checkpoint that names the commit its documents were taken
    /// from: `Cairn-Restore-Source: <40 hex digits>`. An audit reads it (`PushRules`): an
    /// append-only document a restore takes back to the source's version is no change of one.
    public static let restoreSourceTrailer = "Cairn-Restore-Source"

    /// Takes documents back to their version on the remote (as of the last sync), or at
    /// `revision`, and removes those the source lacks, in a new checkpoint: the way out of a
    /// push the server refused. The history is kept (the refused checkpoints stay, undone by
    /// this one) and every other document stays as it is, unpushed checkpoints included.
    /// Pending writes are checkpointed first, as a sync does.
    ///
    /// An append-only document may go back to the remote's version whatever it holds, and may
    /// go when the remote never received it: neither changes what the remote holds. It is
    /// never taken to another version than the remote's. A document the source lacks is not
    /// removed while documents below it would stay. Refusals change nothing.
    public func restore(_ paths: [DocumentPath], from revision: String? = nil) throws(CairnError) -> RestoreResult {
        guard !paths.isEmpty else { throw CairnError(.invalidInput, "name the documents to restore") }
        for path in paths { try checkOwned(path) }
        if revision == nil, try remote() == nil {
            throw CairnError(.notFound, "the store of user \(uid) has no remote to restore from", remedy: .nameRestoreSource)
        }
        let named = Array(Set(paths)).sorted()
        return try locked("cannot restore") { () throws -> RestoreResult in
            let remoteCommit = try repository.reference(Self.remoteBranch)
            let source = try revision.map { (revision) throws(CairnError) in try resolve(revision).id } ?? remoteCommit
            let sourceName = revision ?? "origin/main"
            let head = try repository.reference(branchReference)
            let set = try schemaSet()
            var targets: [(path: DocumentPath, blob: ObjectID?)] = []
            for path in named {
                let target = try source.flatMap { try repository.blobID(at: path.fileName, inCommit: $0) }
                let checkpointed = try head.flatMap { try repository.blobID(at: path.fileName, inCommit: $0) }
                let file = absolute(path.fileName)
                let present = FileSystem.kind(file) == .file
                guard target != nil || present || checkpointed != nil else {
                    let place = revision.map { "at \($0)" } ?? "on the remote"
                    throw CairnError(.notFound, "there is no document at \(path) here or \(place); nothing was restored")
                }
                let current = present ? try repository.hashFile(atPath: file) : nil
                guard current != target || checkpointed != target else { continue }
                if let kind = set.kind(of: path), kind.policy.isAppendOnly,
                    let pushed = try remoteCommit.flatMap({ try repository.blobID(at: path.fileName, inCommit: $0) }), pushed != target
                {
                    throw CairnError(
                        .invalidInput,
                        "\(path) is append-only (\(kind.file)): the remote holds it, so it can only be restored to the remote's version; nothing was restored"
                    )
                }
                if let target, revision != nil {
                    try checkRestorable(path, blob: target, at: revision!, set: set)
                }
                targets.append((path, target))
            }
            let removed = Set(targets.filter { $0.blob == nil }.map(\.path))
            for path in removed {
                let staying = documents(under: path.folderName).filter { !removed.contains($0) }
                if !staying.isEmpty {
                    let shown = staying.prefix(3).map(\.description).joined(separator: ", ") + (staying.count > 3 ? ", …" : "")
                    throw CairnError(
                        .invalidInput,
                        "\(path) has documents below it that would stay (\(shown)); restore them too, or rm -r it; nothing was restored")
                }
            }
            let fromRemote = revision == nil
            guard !targets.isEmpty else {
                return RestoreResult(
                    checkpoint: CheckpointResult(id: nil, changes: []), restore: CheckpointResult(id: nil, changes: []),
                    restored: 0, sourceName: sourceName, source: source.map(CheckpointID.init), fromRemote: fromRemote)
            }
            let pending = try commitPending(message: nil)
            try journal.append(targets.map(\.path.fileName))
            try recountingAfter(targets.map(\.path)) {
                for (path, blob) in targets {
                    let file = absolute(path.fileName)
                    if let blob {
                        let bytes = try repository.blobContent(blob)
                        if FileSystem.kind(file) == .file {
                            try FileSystem.replaceContents(of: file, with: bytes, spare: repository.gitdir + StoreLayout.spareFile)
                        } else {
                            try FileSystem.makeFolders(absolute(path.collection.description))
                            try FileSystem.writeAtomically(bytes, to: file)
                        }
                    } else if FileSystem.kind(file) != nil {
                        try FileSystem.removeFile(file)
                        FileSystem.removeEmptyFolders(from: absolute(path.collection.description), upTo: folder)
                    }
                }
            }
            var result = RestoreResult(
                checkpoint: pending, restore: CheckpointResult(id: nil, changes: []),
                restored: targets.count, sourceName: sourceName, source: source.map(CheckpointID.init), fromRemote: fromRemote)
            let changes = try status().pending
            let count = targets.count
            var message = "Restore \(count) document\(count == 1 ? "" : "s") to \(result.destination)\n"
            if !changes.isEmpty {
                message += "\n" + changes.map { "\($0.kind.rawValue) \($0.displayPath)\n" }.joined()
            }
            if let source { message += "\n\(Self.restoreSourceTrailer): \(source.hex)\n" }
            result.restore = try commitPending(message: message)
            return result
        }
    }

    /// Refuses to restore a document from a revision where it is not a valid document: not a
    /// JSON object, or refused by its schema.
    private func checkRestorable(_ path: DocumentPath, blob: ObjectID, at revision: String, set: SchemaSet) throws {
        let value = try parseStored(repository.blobContent(blob), file: path.fileName, what: "\(path) at \(revision)")
        guard case .object = value else {
            throw CairnError(.invalidInput, "\(path) at \(revision) holds a JSON \(value.typeName), not a document; nothing was restored")
        }
        if let kind = set.kind(of: path), let first = kind.validate(value, at: path).first {
            throw CairnError(.invalidInput, "\(path) at \(revision) breaks its schema (\(kind.file)) at \(first); nothing was restored")
        }
    }
}
