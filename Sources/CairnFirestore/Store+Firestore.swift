import CairnCore
import CairnMerge
import CairnSystem
import Git
import Logging

extension Store {
    /// The store's git configuration keys that remember the Firestore database of the last
    /// import, which an export names its documents in unless told another.
    static let firestoreProjectKey = "cairn.firestore.project"
    static let firestoreDatabaseKey = "cairn.firestore.database"

    /// Imports a Firestore export (``FirestoreExportFile``: REST or the Node tool's form) into
    /// the store, in one checkpoint: every document of the file is written as a ``put(_:at:)``
    /// writes it — checked against its schema, derived fields computed, sealed in an
    /// encrypted store — replacing the store's document at its path; the store's other
    /// documents stay. Values are mapped as the schema set directs (`FirestoreMapping`).
    ///
    /// Every document is checked before any is written: one outside `users/<uid>`, of another
    /// user (unless `skippingOtherUsers`, which leaves them out and counts them), with a path
    /// that breaks the ID rules, invalid under its schema, or holding a value JSON cannot
    /// keep refuses the whole import, and nothing is written. Writes made before the import
    /// and not checkpointed are checkpointed first, on their own. The database of a REST
    /// file is remembered in the store's git configuration (`cairn.firestore.project`,
    /// `cairn.firestore.database`) for ``exportFirestore(at:shape:database:)``.
    @discardableResult
    public func importFirestore(_ bytes: [UInt8], skippingOtherUsers: Bool = false) throws(CairnError) -> FirestoreImportResult {
        let file = try FirestoreExportFile(parsing: bytes)
        return try locked("cannot import the Firestore export") { () throws -> FirestoreImportResult in
            let set = try schemaSet()
            var skipped = 0
            var notes: [FirestoreTypeNote] = []
            var values: [DocumentPath: JSONValue] = [:]
            for document in file.documents {
                let segments = document.path.split(separator: "/", omittingEmptySubsequences: false)
                guard segments.first == Substring(StoreLayout.usersFolder) else {
                    throw FirestoreExportFile.refusal(
                        "\(document.path) is outside users/{uid}: a store holds one user's documents, users/\(uid) and below; export only the users collection"
                    )
                }
                let path: DocumentPath
                do throws(PathError) {
                    path = try DocumentPath(document.path)
                } catch {
                    throw FirestoreExportFile.refusal(
                        "\(error.description) (in the export); rename the document in Firestore, or leave it out of the export")
                }
                guard StoreLayout.isOwned(path, by: uid) else {
                    if skippingOtherUsers {
                        skipped += 1
                        continue
                    }
                    throw CairnError(
                        .invalidInput,
                        "\(path) is a document of user \(path.segments[1]), and this is the store of \(uid): nothing was written",
                        remedy: .skipOtherUsers(uid: path.segments[1]))
                }
                guard values[path] == nil else {
                    throw FirestoreExportFile.refusal("\(path) is in the export twice; keep one")
                }
                let mapping = FirestoreMapping(document: path, schema: set.kind(of: path)?.schema.root)
                let value = try mapping.document(from: document.fields)
                values[path] = value
                // What an export in the file's own shape would not give back as the file has
                // it is remembered (the Node tool's form has no bytes, and writes a whole
                // double as an integer: a difference there is none).
                var exported = FirestoreValue.map(mapping.fields(of: value))
                if file.shape == .node {
                    exported = .map(
                        try FirestoreValue.fields(
                            node: FirestoreValue.node(mapping.fields(of: value)).objectValue ?? [:],
                            document: document.path, pointer: ""))
                }
                for difference in FirestoreMapping.differences(.map(document.fields), exported) {
                    let schemaType = FirestoreMapping.value(at: difference.pointer, in: exported)?.typeName ?? "nullValue"
                    let kept = value.value(atTokens: JSONValue.tokens(ofPointer: difference.pointer)) ?? .null
                    notes.append(
                        FirestoreTypeNote(
                            document: path, pointer: difference.pointer, type: difference.type, schemaType: schemaType, value: kept))
                }
            }
            try checkFirestoreIDs(Array(values.keys))
            // Parents before what lies below them, so that counts of documents below are
            // computed again as each is written.
            let order = values.keys.sorted { $0.segments.count != $1.segments.count ? $0.segments.count < $1.segments.count : $0 < $1 }
            var prepared: [(path: DocumentPath, filled: JSONValue, stored: [UInt8])] = []
            for path in order {
                let (filled, stored) = try self.prepared(values[path]!, at: path)
                if let old = try FileSystem.read(absolute(path.fileName)), old != stored {
                    try checkAppendOnly(path, change: .changed, from: old, to: filled)
                } else {
                    try checkCaseCollisions(path)
                }
                prepared.append((path, filled, stored))
            }
            // Checked: from here on, writes.
            try commitPending(message: nil)
            for document in prepared {
                try write(document.filled, stored: document.stored, at: document.path)
            }
            let count = prepared.count
            var message = "Firestore import: \(count) document\(count == 1 ? "" : "s")"
            message += file.database.map { " of \($0)" } ?? " (node-firestore-import-export's form)"
            if skipped > 0 { message += ", \(skipped) of other users left out" }
            message += "\n"
            let result = try commitPending(message: message)
            var remembered = rememberedFirestoreTypes()
            remembered.record(notes, imported: order)
            try FileSystem.writeAtomically(remembered.json.canonicalBytes(), to: repository.gitdir + StoreLayout.firestoreTypesFile)
            if let database = file.database {
                try repository.setConfig(Self.firestoreProjectKey, to: database.project)
                try repository.setConfig(Self.firestoreDatabaseKey, to: database.database)
            }
            logger.debug(
                "import-firestore", metadata: ["documents": "\(count)", "skipped": "\(skipped)", "commit": "\(result.id?.short ?? "none")"])
            return FirestoreImportResult(
                checkpoint: result.id, documents: order.sorted(), changes: result.changes, skipped: skipped,
                database: file.database, shape: file.shape, notes: notes)
        }
    }

    /// Refuses two documents of an import whose IDs (or collections' names) differ only in
    /// case or accents at the same place: one file on a case-insensitive file system.
    private func checkFirestoreIDs(_ paths: [DocumentPath]) throws(CairnError) {
        var seen: [String: String] = [:]
        for path in paths {
            for end in 1...path.segments.count {
                let place = path.segments[..<(end - 1)].joined(separator: "/")
                let name = path.segments[end - 1]
                let key = place + "/" + name.lowercased()
                if let other = seen[key], DocumentID.collide(other, name) {
                    throw FirestoreExportFile.refusal(
                        "the IDs \"\(other)\" and \"\(name)\" in \(place) differ only in case or accents, which a case-insensitive file system makes one file; rename one in Firestore"
                    )
                }
                seen[key] = name
            }
        }
    }

    /// The store's documents as a Firestore export file: as they are now (writes not
    /// checkpointed included), or at the checkpoint `revision` names (with the schema set
    /// of that checkpoint), mapped as the schema set directs, sorted by path. A REST file
    /// names its documents in `database`, else the one the last import remembered (a
    /// database ID of `(default)` when only the project is known); the Node tool's form names
    /// none. An encrypted store's documents are exported opened.
    public func exportFirestore(
        at revision: String? = nil, shape: FirestoreShape = .rest,
        database: FirestoreDatabase? = nil
    ) throws(CairnError) -> FirestoreExport {
        var named = database
        if shape == .rest, named == nil {
            named = try rememberedFirestoreDatabase()
        }
        if shape == .rest, named == nil {
            throw CairnError(
                .invalidInput, "a Firestore export names every document in its project, and the store knows none (no import recorded one)",
                remedy: .nameFirestoreProject)
        }
        return try translatingErrors("cannot export to Firestore's form") { () throws -> FirestoreExport in
            let found: [(path: DocumentPath, value: JSONValue)]
            let set: SchemaSet
            if let revision {
                let commit = try resolve(revision)
                let reader = StoreTreeReader(repository: repository, codec: codec)
                set = try reader.schemaSet(commit.treeID)
                found = try reader.documents(commit.treeID).map { ($0.key, $0.value) }
            } else {
                set = try schemaSet()
                var paths = documents(under: StoreLayout.documentsFolder(of: uid), sorted: false)
                if let own = StoreLayout.userDocument(of: uid), FileSystem.kind(absolute(own.fileName)) == .file {
                    paths.append(own)
                }
                found = try paths.compactMap { path in try document(at: path).map { (path, $0) } }
            }
            let remembered = rememberedFirestoreTypes()
            let exported = found.filter { StoreLayout.isOwned($0.path, by: uid) }.map { document in
                let mapping = FirestoreMapping(
                    document: document.path, schema: set.kind(of: document.path)?.schema.root,
                    remembered: remembered.types(of: document.path, as: document.value))
                return FirestoreDocument(path: document.path.description, fields: mapping.fields(of: document.value))
            }
            let file = FirestoreExportFile(shape: shape, database: shape == .rest ? named : nil, documents: exported)
            return FirestoreExport(bytes: file.bytes(), documents: exported.count, database: file.database)
        }
    }

    /// The Firestore types this store's imports remembered where its schema set gives none.
    func rememberedFirestoreTypes() -> FirestoreRememberedTypes {
        FirestoreRememberedTypes(json: try? FileSystem.read(repository.gitdir + StoreLayout.firestoreTypesFile))
    }

    /// The database the last import of a REST export recorded; nil when none did.
    public func rememberedFirestoreDatabase() throws(CairnError) -> FirestoreDatabase? {
        do {
            guard let project = try repository.config(Self.firestoreProjectKey) else { return nil }
            return FirestoreDatabase(
                project: project, database: try repository.config(Self.firestoreDatabaseKey) ?? FirestoreDatabase.defaultDatabase)
        } catch {
            throw CairnError.git(error, doing: "cannot read the store's configuration")
        }
    }
}
