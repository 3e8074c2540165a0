import CairnMerge
import CairnSystem
import Git

extension Store {
    /// Replaces the store's schema set with `schemaSet` (its name and files), migrating every
    /// document from the store's version to the new set's with the migrations the new set
    /// declares — all in one checkpoint. Pending writes are checkpointed first, under the old
    /// set. Refuses a set at a lower version than the store's, and a migration that cannot
    /// place a document, before anything is written.
    @discardableResult
    public func upgradeSchemaSet(_ schemaSet: SchemaSetFiles) throws(CairnError) -> CheckpointResult {
        let target = try SchemaSet(readingProgress: schemaSet, then: "nothing was changed")
        return try locked("cannot migrate the store of \(uid)") { () throws -> CheckpointResult in
            try commitPending(message: nil)
            let version = try self.schemaSet().migrations.version
            let goal = target.migrations.version
            guard goal >= version else {
                throw CairnError(
                    .invalidInput,
                    "the store of \(uid) is at schema version \(version); \(schemaSet.name) is at \(goal), and a store never goes back; nothing was changed"
                )
            }
            var before: [DocumentPath: JSONValue] = [:]
            var owned = documents(under: StoreLayout.documentsFolder(of: uid))
            if let user = StoreLayout.userDocument(of: uid), FileSystem.kind(absolute(user.fileName)) == .file {
                owned.append(user)
            }
            for path in owned {
                guard let bytes = try FileSystem.read(absolute(path.fileName)) else { continue }
                before[path] = try parseStored(bytes, file: path.fileName)
            }
            let after: [DocumentPath: JSONValue]
            do throws(SchemaSetError) {
                after = target.filledAll(try target.migrations.migrate(before, from: version))
            } catch {
                throw CairnError(
                    .invalidInput,
                    "cannot migrate the store of \(uid) from schema version \(version) to \(goal): \(error.description); nothing was changed",
                    cause: error)
            }
            for (path, value) in after {
                if let first = target.validate(value, at: path).first {
                    throw CairnError(
                        .invalidInput,
                        "after the migration, \(path) would break its schema at \(first); fix the migration or the document — nothing was changed"
                    )
                }
            }
            // The new set and the documents, every path recorded for one checkpoint.
            let folder = absolute(StoreLayout.schemaFolder)
            for name in FileSystem.names(in: folder) where SchemaSetFiles.isSetFile(name) && schemaSet.files[name] == nil {
                try journal.append([StoreLayout.schemaFolder + "/" + name])
                try FileSystem.removeFile(folder + "/" + name)
            }
            for (name, bytes) in schemaSet.files.sorted(by: { $0.key < $1.key }) {
                try journal.append([StoreLayout.schemaFolder + "/" + name])
                try FileSystem.writeAtomically(bytes, to: folder + "/" + name)
            }
            // The identity names the set the store now follows.
            let identityPath = absolute(StoreLayout.identityFile)
            if case .object(var identity)? = try FileSystem.read(identityPath).flatMap({ try? JSONParser().parse($0) }),
                identity["schemaSet"] != .string(schemaSet.name)
            {
                identity["schemaSet"] = .string(schemaSet.name)
                try journal.append([StoreLayout.identityFile])
                try FileSystem.writeAtomically(JSONValue.object(identity).canonicalBytes(), to: identityPath)
            }
            var moved = 0, changed = 0
            for path in before.keys.sorted() where after[path] == nil {
                try journal.append([path.fileName])
                try FileSystem.removeFile(absolute(path.fileName))
                FileSystem.removeEmptyFolders(from: FileSystem.parent(of: absolute(path.fileName)), upTo: self.folder)
                moved += 1
            }
            for path in after.keys.sorted() {
                let bytes = after[path]!.canonicalBytes()
                guard before[path].map({ $0.canonicalBytes() != bytes }) ?? true else { continue }
                if before[path] != nil { changed += 1 }
                try journal.append([path.fileName])
                try FileSystem.makeFolders(absolute(path.collection.description))
                try FileSystem.writeAtomically(codec.stored(bytes, at: path.fileName), to: absolute(path.fileName))
            }
            loadedSchemaSet = nil
            let summary =
                version == goal
                ? "Use the schema set \(schemaSet.name) (version \(goal))"
                : "Migrate to schema version \(goal) (\(schemaSet.name)): \(moved) document\(moved == 1 ? "" : "s") moved, \(changed) changed"
            return try commitPending(
                message: summary + "\n\n"
                    + target.migrations.migrations
                    .filter { $0.from >= version && $0.to <= goal }
                    .map { "\($0.from) → \($0.to): \($0.description)" }.joined(separator: "\n"))
        }
    }
}
