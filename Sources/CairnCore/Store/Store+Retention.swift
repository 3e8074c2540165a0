import CairnMerge

extension Store {
    /// Applies the schema set's retention (`x-cairn.retention`): in every collection of a kind
    /// that declares one, the documents older than the `keep` latest are removed — append-only
    /// ones too, the one deletion they allow — in one checkpoint that lists them. Pending
    /// writes are checkpointed first. The removed documents stay in history.
    @discardableResult
    public func prune() throws(CairnError) -> CheckpointResult {
        try locked("cannot prune the store of \(uid)") { () throws -> CheckpointResult in
            try commitPending(message: nil)
            let set = try schemaSet()
            guard !set.kinds.isEmpty else { return CheckpointResult(id: nil, changes: []) }
            var removed: [(DocumentPath, SchemaSet.Kind)] = []
            let all = documents(under: StoreLayout.documentsFolder(of: uid))
            for kind in set.kinds {
                guard let retention = kind.retention else { continue }
                var byCollection: [CollectionPath: [DocumentPath: JSONValue]] = [:]
                for path in all where set.kind(of: path)?.file == kind.file {
                    guard let bytes = try FileSystem.read(absolute(path.fileName)) else { continue }
                    byCollection[path.collection, default: [:]][path] = try parseStored(bytes, file: path.fileName)
                }
                for (_, documents) in byCollection {
                    removed += retention.expired(documents).map { ($0, kind) }
                }
            }
            guard !removed.isEmpty else { return CheckpointResult(id: nil, changes: []) }
            removed.sort { $0.0 < $1.0 }
            try journal.append(removed.map(\.0.fileName))
            try recountingAfter(removed.map(\.0)) {
                for (path, _) in removed {
                    try FileSystem.removeFile(absolute(path.fileName))
                    FileSystem.removeEmptyFolders(from: absolute(path.collection.description), upTo: folder)
                }
            }
            let kinds = Set(removed.map { "\($0.1.file): \($0.1.retention!)" }).sorted()
            var message =
                "Retention: \(removed.count) document\(removed.count == 1 ? "" : "s") removed (\(kinds.joined(separator: "; ")))\n\n"
            for (path, _) in removed.prefix(200) { message += "removed \(path)\n" }
            if removed.count > 200 { message += "… and \(removed.count - 200) more\n" }
            return try commitPending(message: message)
        }
    }
}
