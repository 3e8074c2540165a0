import CairnMerge
import Git
import GitFormat

extension Store {
    /// The documents that differ from the checkpoint `from` names (`HEAD~2`, an id) to the one
    /// `to` names, or to the working tree when `to` is nil (the writes not checkpointed yet, as
    /// ``status(scan:)`` finds them: with `scan`, every file), sorted by path. Only documents
    /// at `path` are compared when it is given: a document, or a collection and what is below
    /// it.
    public func diff(from: String, to: String?, scan: Bool = false, under path: String? = nil) throws(CairnError) -> [DocumentDiff] {
        let old = try resolve(from)
        let new = try to.map { revision throws(CairnError) in try resolve(revision) }
        return try translatingErrors("cannot compare \(from) with \(to ?? "the working tree")") { () throws -> [DocumentDiff] in
            guard let new else {
                // The working tree: what differs from `from` to the last checkpoint, and what
                // was written since.
                let head = try repository.reference(branchReference).map { try repository.commit($0) }
                var files = Set(try repository.differences(among: [old.treeID, head?.treeID]).map(\.path))
                files.formUnion(try status(scan: scan).pending.map(\.path))
                return try files.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { file -> DocumentDiff? in
                    guard let document = Self.document(file, under: path) else { return nil }
                    let before = try repository.blobID(at: file, inCommit: old.id).map { try stored($0, file: file, at: from) }
                    return DocumentDiff(path: document, before: before, after: try self.document(at: document))
                }
            }
            return try differences(from: old.treeID, to: new.treeID, names: (from, to ?? ""), under: path)
        }
    }

    /// The documents a checkpoint changed, against its first parent (for a merge, what the
    /// merge brought into the branch; for the first checkpoint, every document), sorted by
    /// path; only those at `path` (a document, or a collection and below) when it is given.
    public func diff(in checkpoint: Checkpoint, under path: String? = nil) throws(CairnError) -> [DocumentDiff] {
        try translatingErrors("cannot read the changes of \(checkpoint.id.short)") { () throws -> [DocumentDiff] in
            let tree = try repository.commit(checkpoint.id.objectID).treeID
            let parent = try checkpoint.parents.first.map { try repository.commit($0.objectID).treeID }
            return try differences(from: parent, to: tree, names: (checkpoint.parents.first?.short ?? "", checkpoint.id.short), under: path)
        }
    }

    private func differences(from old: ObjectID?, to new: ObjectID, names: (String, String), under path: String?) throws -> [DocumentDiff] {
        try repository.differences(among: [old, new]).compactMap { difference -> DocumentDiff? in
            guard let document = Self.document(difference.path, under: path) else { return nil }
            let before = try difference.entries[0].map { try stored($0.id, file: difference.path, at: names.0) }
            let after = try difference.entries[1].map { try stored($0.id, file: difference.path, at: names.1) }
            return DocumentDiff(path: document, before: before, after: after)
        }.sorted { $0.path.description.utf8.lexicographicallyPrecedes($1.path.description.utf8) }
    }

    /// The document a blob of the store holds.
    private func stored(_ blob: ObjectID, file: String, at revision: String) throws -> JSONValue {
        try parseStored(try repository.blobContent(blob), file: file, what: "\(file) at \(revision)")
    }

    /// The document whose file is `file`, when it is one and lies at `path` (a document, or a
    /// collection and below; anywhere when nil).
    static func document(_ file: String, under path: String?) -> DocumentPath? {
        guard let document = DocumentPath(fileName: file) else { return nil }
        guard let path else { return document }
        let text = document.description
        return text == path || text.hasPrefix(path + "/") ? document : nil
    }
}
