import CairnMerge
import Git
import GitFormat

/// Reads what a commit's tree holds as a store: its schema set and its documents.
package struct StoreTreeReader {
    let repository: Repository
    /// What the tree's document blobs hold: plain or sealed JSON.
    let codec: DocumentCodec

    package init(repository: Repository, codec: DocumentCodec) {
        self.repository = repository
        self.codec = codec
    }

    /// The schema set's files in the tree (`.cairn/schema/`), name → blob.
    func schemaEntries(_ tree: ObjectID) throws -> [String: ObjectID] {
        var entries: [String: ObjectID] = [:]
        for file in try repository.files(under: StoreLayout.schemaFolder, inTree: tree) {
            let name = FileSystem.lastComponent(of: file.path)
            if SchemaSetFiles.isSetFile(name), let entry = file.entries[0] { entries[name] = entry.id }
        }
        return entries
    }

    /// The version of the tree's schema set (1 without a `migrations.json`).
    func version(_ tree: ObjectID) throws -> Int {
        guard let entry = try repository.entry(at: StoreLayout.schemaFolder + "/" + SchemaMigrations.fileName, inTree: tree) else {
            return 1
        }
        return (try? SchemaMigrations(json: repository.blobContent(entry.id)))?.version ?? 1
    }

    /// The tree's schema set (``SchemaSet/empty`` when it has none).
    package func schemaSet(_ tree: ObjectID) throws -> SchemaSet {
        var files: [String: [UInt8]] = [:]
        for (name, id) in try schemaEntries(tree) { files[name] = try repository.blobContent(id) }
        guard !files.isEmpty else { return .empty }
        do {
            return try SchemaSet(files: files)
        } catch {
            throw CairnError(.corrupt, "the schema set in history is broken: \(error.description)", cause: error)
        }
    }

    /// Every document of the tree.
    package func documents(_ tree: ObjectID) throws -> [DocumentPath: JSONValue] {
        var found: [DocumentPath: JSONValue] = [:]
        for file in try repository.differences(among: [tree, nil]) {
            guard let path = DocumentPath(fileName: file.path), let entry = file.entries[0] else { continue }
            let bytes = try codec.json(repository.blobContent(entry.id), at: path.fileName)
            do {
                found[path] = try JSONParser().parse(bytes)
            } catch {
                throw CairnError(.corrupt, "\(path) in history is not a valid document (\(error.description))", cause: error)
            }
        }
        return found
    }

    /// The tree with its documents migrated to `target`'s version and its schema files
    /// replaced by `targetEntries`; the tree itself when it is at that version already.
    func migrated(_ tree: ObjectID, to target: SchemaSet, targetEntries: [String: ObjectID]) throws -> ObjectID {
        let version = try version(tree)
        guard version < target.migrations.version else { return tree }
        let before = try documents(tree)
        let after: [DocumentPath: JSONValue]
        do {
            after = target.filledAll(try target.migrations.migrate(before, from: version))
        } catch {
            throw CairnError(.invalidInput, "cannot migrate documents from schema version \(version): \(error.description)", cause: error)
        }
        var updates: [TreeUpdate] = []
        for path in before.keys where after[path] == nil { updates.append(.remove(path: path.fileName)) }
        for (path, value) in after where before[path].map({ !JSONValue.same($0, value) }) ?? true {
            updates.append(
                .upsert(
                    path: path.fileName, id: try repository.writeBlob(codec.stored(value.canonicalBytes(), at: path.fileName)),
                    mode: 0o100644))
        }
        let current = try schemaEntries(tree)
        for name in current.keys where targetEntries[name] == nil {
            updates.append(.remove(path: StoreLayout.schemaFolder + "/" + name))
        }
        for (name, id) in targetEntries where current[name] != id {
            updates.append(.upsert(path: StoreLayout.schemaFolder + "/" + name, id: id, mode: 0o100644))
        }
        return try repository.updateTree(tree, with: updates).id
    }
}
