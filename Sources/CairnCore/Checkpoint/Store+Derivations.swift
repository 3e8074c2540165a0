import CairnMerge
import Git
import GitFormat
import Logging

extension Store {
    /// Computes again the derived fields of the documents that differ among the commits
    /// `sides` and `result.head` — what a sync brought in, merged, or is about to push,
    /// whoever wrote it — and, where another writer left one wrong, commits the corrected
    /// documents on top (a checkpoint whose message names each document, field, expected and
    /// found value) and moves the working tree there. The caller holds the lock.
    func correctDerivedFields(comparing sides: [ObjectID?], result: inout SyncResult) throws {
        guard let head = result.head?.objectID else { return }
        let set = try schemaSet()
        guard set.kinds.contains(where: { !$0.derived.isEmpty || !$0.counted.isEmpty }) else { return }
        let tree = try repository.commit(head).treeID
        var trees: [ObjectID?] = []
        for side in sides { trees.append(try side.map { try repository.commit($0).treeID }) }
        let differing = try repository.differences(among: trees + [tree])
        var changed = differing.compactMap { DocumentPath(fileName: $0.path) }
        // A schema set that changed may derive and count otherwise: every document is checked.
        if differing.contains(where: { $0.path.hasPrefix(StoreLayout.schemaFolder + "/") }) {
            changed = try repository.differences(among: [tree, nil]).compactMap { DocumentPath(fileName: $0.path) }
        }
        guard !changed.isEmpty else { return }
        let corrections = try TreeDerivations(repository: repository, schemaSet: set, codec: codec).corrections(in: tree, after: changed)
        guard !corrections.isEmpty else { return }
        let mismatches = corrections.flatMap(\.mismatches)
        let commit = try repository.packingWrites { () throws -> ObjectID in
            var updates: [TreeUpdate] = []
            for correction in corrections {
                let id = try repository.writeBlob(codec.stored(correction.corrected.canonicalBytes(), at: correction.path.fileName))
                updates.append(.upsert(path: correction.path.fileName, id: id, mode: 0o100644))
            }
            let count = corrections.count
            let message =
                "Sync: derived fields computed again in \(count) document\(count == 1 ? "" : "s") written without them\n\n"
                + mismatches.map { describedInHistory($0) + "\n" }.joined()
            let signature = signature()
            return try repository.createCommit(
                tree: repository.updateTree(tree, with: updates).id, parents: [head], message: withDeviceTrailers(message),
                author: signature, committer: signature, updating: nil)
        }
        let files = try moveWorkingTree(from: head, to: commit)
        result.head = CheckpointID(commit)
        result.corrections += mismatches
        result.changedFiles = Array(Set(result.changedFiles + files)).sorted()
        logger.debug(
            "derived fields", metadata: ["commit": "\(commit.short)", "documents": "\(corrections.count)", "fields": "\(mismatches.count)"])
    }

    /// Computes again the derived fields of every document of the store's first commit
    /// `tip`, as a restore from a remote brought it, and commits the corrections on top (the
    /// next sync pushes them); they are kept in ``correctedOnRestore``. The caller holds the lock.
    func correctDerivedFieldsOnArrival(at tip: ObjectID) throws {
        var arrived = SyncResult(checkpoint: CheckpointResult(id: nil, changes: []))
        arrived.head = CheckpointID(tip)
        try correctDerivedFields(comparing: [nil], result: &arrived)
        correctedOnRestore = arrived.corrections
    }

    /// Computes again the derived fields of the documents a scan found edited by hand (or
    /// another git tool committed), and of the documents that count them, writing those that
    /// were wrong (recorded as pending); of every document when the schema set is among
    /// `paths`, since it may derive and count otherwise. Returns what was wrong. The caller
    /// holds the lock.
    func correctDerivedFields(ofScanned paths: [String]) throws -> [DerivedFieldMismatch] {
        var documents = paths.compactMap { DocumentPath(fileName: $0) }
        if paths.contains(where: { $0.hasPrefix(StoreLayout.schemaFolder + "/") }) {
            // A schema file rewritten in place keeps its folder's stamp: the set is read again.
            loadedSchemaSet = nil
            documents = everyDocument()
        }
        let set = try schemaSet()
        var found: [DerivedFieldMismatch] = []
        for path in set.documentsToDerive(after: documents) {
            guard let kind = set.kind(of: path), let bytes = try FileSystem.read(absolute(path.fileName)),
                let value = try? parseStored(bytes, file: path.fileName)
            else { continue }
            let documents = { (count: DocumentCount) in self.documents(of: count, below: path) }
            let mismatches = kind.derivedMismatches(of: value, at: path, documents: documents)
            guard !mismatches.isEmpty else { continue }
            try journal.append([path.fileName])
            try FileSystem.writeAtomically(
                codec.stored(kind.filled(value, documents: documents).canonicalBytes(), at: path.fileName), to: absolute(path.fileName))
            found += mismatches
        }
        return found
    }

    /// Commits the pending paths as recorded (see ``commitRecorded(message:)``) with a
    /// message that also lists the derived fields computed again. The caller holds the lock.
    func commitRecorded(message: String?, corrections: [DerivedFieldMismatch]) throws -> CheckpointResult {
        let text = try message.map { $0.hasSuffix("\n") ? $0 : $0 + "\n" } ?? Self.describe(status().pending)
        var result = try commitRecorded(message: text + describeCorrections(corrections))
        result.corrections = corrections
        return result
    }

    /// The part of a commit message that lists derived fields computed again ("" for none).
    func describeCorrections(_ mismatches: [DerivedFieldMismatch]) -> String {
        guard !mismatches.isEmpty else { return "" }
        return "\nDerived fields computed again:\n"
            + mismatches.map { describedInHistory($0) + "\n" }.joined()
    }
}
