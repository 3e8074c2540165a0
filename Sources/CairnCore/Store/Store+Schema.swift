import CairnMerge
import CairnSystem
import Git

extension Store {
    /// The store's schema set (`.cairn/schema/*.schema.json`), or `SchemaSet/empty` when it
    /// has none.
    public func schemaSet() throws(CairnError) -> SchemaSet {
        if let loaded = loadedSchemaSet { return loaded }
        // The folder's stamp before its files are read: a change made while they are read
        // shows as a changed stamp at the next check.
        let stamp = currentSchemaFolderStamp()
        var files: [String: [UInt8]] = [:]
        for name in FileSystem.names(in: absolute(StoreLayout.schemaFolder)) where SchemaSetFiles.isSetFile(name) {
            files[name] = try FileSystem.read(absolute(StoreLayout.schemaFolder + "/" + name))
        }
        var set = SchemaSet.empty
        if !files.isEmpty {
            do {
                set = try SchemaSet(files: files)
            } catch {
                throw CairnError(
                    .corrupt,
                    "the store's schema set (\(StoreLayout.schemaFolder)) is broken: \(error.description); restore it from history",
                    cause: error)
            }
        }
        loadedSchemaSet = set
        schemaFolderStamp = .some(stamp)
        schemaFolderSettled = isSettled(stamp)
        return set
    }

    /// `.cairn/schema`'s stamp now; nil when there is no such folder.
    private func currentSchemaFolderStamp() -> FileStamp? {
        FileStamp(path: absolute(StoreLayout.schemaFolder), kind: .folder)
    }

    /// Whether the schema folder's `stamp` has settled: older than a tick of the file
    /// system's clock, so that a change made within that tick would have given another stamp.
    private func isSettled(_ stamp: FileStamp?) -> Bool {
        stamp.map { $0.isSettled(seconds: 1, at: fileClock()) } ?? true
    }

    /// Drops the loaded schema set when `.cairn/schema` changed since it was read, so that
    /// the next use reads it again: another git tool (`git pull`, `git checkout`) replaced
    /// its files while the store was held open. One `stat` of the folder, before each put and
    /// at the start of each locked operation. A set read in the second its folder changed is
    /// read once more when the folder has settled (the stamp's clock ticks may hide a second
    /// change made in the same tick). A schema file rewritten in place keeps the folder's
    /// stamp; a checkpoint that finds another git tool's changes reads the set again too.
    func forgetSchemaSetIfItsFolderChanged() {
        guard loadedSchemaSet != nil else { return }
        let stamp = currentSchemaFolderStamp()
        if let seen = schemaFolderStamp, seen == stamp, schemaFolderSettled || !isSettled(stamp) {
            return
        }
        loadedSchemaSet = nil
        schemaFolderStamp = nil
    }

    /// The document as it will be stored at `path` (derived fields computed), or the error
    /// that refuses it: its schema's first complaint, and how many more there are.
    func checked(_ value: JSONValue, at path: DocumentPath) throws(CairnError) -> JSONValue {
        guard let kind = try schemaSet().kind(of: path) else { return value }
        let document = kind.filled(value, documents: { count in self.documents(of: count, below: path) })
        let errors = kind.validate(document, at: path)
        if let first = errors.first {
            let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
            throw CairnError(
                .invalidInput, "\(path) breaks its schema (\(kind.file)) at \(first)\(more); nothing was written",
                cause: SchemaRefusal(document: path, schemaFile: kind.file, errors: errors))
        }
        return document
    }

    /// The stored documents of a counted collection below `owner`: only the collection's
    /// folders are listed, not the owner's whole tree. A file that does not parse is not a
    /// document and is not counted, as no tree can hold it.
    func documents(of count: DocumentCount, below owner: DocumentPath) -> [JSONValue] {
        documentPaths(of: count, below: owner).compactMap { path in
            (try? FileSystem.read(absolute(path.fileName))).flatMap { $0 }.flatMap { try? parseStored($0, file: path.fileName) }
        }
    }

    /// The documents of a counted collection below `owner`, found in its folders: a `*`
    /// between two collections stands for each document of the first that has
    /// subcollections (a folder).
    func documentPaths(of count: DocumentCount, below owner: DocumentPath) -> [DocumentPath] {
        var folders = [owner.folderName]
        for segment in count.collection {
            folders =
                segment == "*"
                ? folders.flatMap { folder in
                    FileSystem.entries(in: absolute(folder)).filter { $0.kind == .folder }.map { folder + "/" + $0.name }
                }
                : folders.map { $0 + "/" + segment }
        }
        return folders.flatMap { folder -> [DocumentPath] in
            // The folder's path is checked once, each file's ID on its own.
            guard let collection = try? CollectionPath(folder) else { return [] }
            return FileSystem.entries(in: absolute(folder)).compactMap { entry -> DocumentPath? in
                guard entry.kind == .file, let id = DocumentID.stem(ofFileName: entry.name),
                    let path = try? collection.document(id), count.contains(path, below: owner)
                else { return nil }
                return path
            }
        }
    }

    /// Computes again the counts of the documents above `changed` that count documents like
    /// them, from every document they count, and writes those that changed (recorded as
    /// pending like any write). For writes whose other side is not known: a restore, a
    /// retention sweep, a content decision, and the repair after a killed write. The caller
    /// holds the lock.
    func refreshCounts(after changed: [DocumentPath]) throws {
        let set = try schemaSet()
        var owners: [DocumentPath] = []
        for path in changed {
            for owner in set.owners(affectedBy: path) where !owners.contains(owner) { owners.append(owner) }
        }
        for owner in owners {
            guard let bytes = try FileSystem.read(absolute(owner.fileName)),
                let value = try? parseStored(bytes, file: owner.fileName)
            else { continue }
            try rewrite(owner, stored: bytes, as: set.filled(value, at: owner) { count in self.documents(of: count, below: owner) })
        }
    }

    /// Brings the counts above the documents a put or a delete changed up to date by
    /// difference, as a database keeps a counter: each count that took the old document and
    /// does not take the new one goes down by one, and the other way round. Only the owners'
    /// files are read, however many documents they count. A count whose field holds no whole
    /// number (written by another tool) is computed again from every document instead. The
    /// stored counts are trusted otherwise: where another writer may have changed counted
    /// documents, Cairn counts in full — the checkpoint's scan, a sync, a restore — and a
    /// write killed or failed between a document and its owner is repaired at the next lock
    /// (``repairCountsAfterKilledWrite()``). The caller holds the lock.
    func adjustCounts(after changes: [CountedChange]) throws {
        let set = try schemaSet()
        var differences: [DocumentPath: [String: Int64]] = [:]
        var owners: [DocumentPath] = []
        for change in changes {
            for owner in set.owners(affectedBy: change.path) {
                guard let kind = set.kind(of: owner) else { continue }
                for (field, count) in kind.counted where count.contains(change.path, below: owner) {
                    let before: Int64 = change.old.map(count.takes) == true ? 1 : 0
                    let after: Int64 = change.new.map(count.takes) == true ? 1 : 0
                    if differences[owner] == nil { owners.append(owner) }
                    differences[owner, default: [:]][field, default: 0] += after - before
                }
            }
        }
        for owner in owners {
            guard let changed = differences[owner], changed.values.contains(where: { $0 != 0 }), let kind = set.kind(of: owner),
                let bytes = try FileSystem.read(absolute(owner.fileName)),
                let value = try? parseStored(bytes, file: owner.fileName), case .object(var fields) = value
            else { continue }
            var exact = true
            for (field, difference) in changed {
                guard case .integer(let stored)? = fields[field], stored >= 0,
                    case (let sum, false) = stored.addingReportingOverflow(difference), sum >= 0
                else {
                    exact = false
                    break
                }
                fields[field] = .integer(sum)
            }
            // Without documents, `filled` leaves the counts as set and computes the rest (ratios).
            try rewrite(
                owner, stored: bytes,
                as: exact
                    ? kind.filled(.object(fields))
                    : kind.filled(value, documents: { count in self.documents(of: count, below: owner) }))
        }
    }

    /// Runs `write`, which writes or removes the documents of `changes`, then brings the
    /// counts above them up to date (``adjustCounts(after:)``). The lock is noted `busy`
    /// first, and left `recount` when either fails, so that the next holder, in this process
    /// or another, counts in full what this one could not finish: the document is written
    /// before its owner, and a killed or failed write must not leave the owner's count behind.
    func changingCounts(_ changes: [CountedChange], _ write: () throws -> Void) throws {
        guard !changes.isEmpty else { return try write() }
        try guardingCounts {
            try write()
            try adjustCounts(after: changes)
        }
    }

    /// Runs `write`, which writes or removes the documents at `changed` whatever they held
    /// (a restore, a retention sweep, a content decision), then counts their owners in full
    /// (``refreshCounts(after:)``), with the lock guarded as in ``changingCounts(_:_:)``.
    func recountingAfter(_ changed: [DocumentPath], _ write: () throws -> Void) throws {
        try guardingCounts {
            try write()
            try refreshCounts(after: changed)
        }
    }

    /// Runs `body` with the lock noted `busy`, and left `recount` if it fails.
    private func guardingCounts(_ body: () throws -> Void) throws {
        try lock.noteBusy()
        do {
            try body()
        } catch {
            lock.leaveForRecount()
            throw error
        }
    }

    /// Whether a write at `path` may change some count above it (see ``changingCounts(_:_:)``).
    func changesCounts(_ path: DocumentPath) throws(CairnError) -> Bool {
        try !schemaSet().owners(affectedBy: path).isEmpty
    }

    /// Counts in full the owners above every pending document, after the lock's last holder
    /// was killed or failed half way through a write below a count: it may have written a
    /// document and not yet its owner's count. The caller holds the lock.
    func repairCountsAfterKilledWrite() throws {
        let set = try schemaSet()
        guard set.kinds.contains(where: { !$0.counted.isEmpty }) else { return }
        try refreshCounts(after: journal.paths().compactMap { DocumentPath(fileName: $0) })
    }

    /// Writes `owner` as `value` when that differs from its `stored` bytes, just read from
    /// its file (recorded as pending like any write; swapped in as a put swaps a document).
    private func rewrite(_ owner: DocumentPath, stored bytes: [UInt8], as value: JSONValue) throws {
        let updated = try codec.stored(value.canonicalBytes(), at: owner.fileName)
        guard updated != bytes else { return }
        try journal.append([owner.fileName])
        try FileSystem.replaceContents(
            of: absolute(owner.fileName), with: updated, spare: repository.gitdir + StoreLayout.spareFile,
            readable: true)
    }

    /// Refuses to change or delete an existing document of an append-only kind, with an
    /// ``AppendOnlyRefusal`` as the error's cause.
    /// The one change it takes is clearing asset fields (`from` the stored bytes `to` the new
    /// document): a recording can always be deleted.
    package func checkAppendOnly(
        _ path: DocumentPath, change: AppendOnlyRefusal.Change,
        from old: [UInt8]? = nil, to new: JSONValue? = nil
    ) throws(CairnError) {
        guard let kind = try schemaSet().kind(of: path), kind.policy.isAppendOnly,
            FileSystem.kind(absolute(path.fileName)) == .file
        else { return }
        if let old, let new, let before = try? parseStored(old, file: path.fileName), kind.onlyClearsAssets(from: before, to: new) {
            return
        }
        let hint = change == .changed ? "write a new document instead" : "append-only documents are kept for good"
        throw CairnError(
            .invalidInput, "\(path) is append-only (\(kind.file)): an existing document is never \(change.rawValue); \(hint)",
            cause: AppendOnlyRefusal(document: path, schemaFile: kind.file, change: change))
    }

    /// Every document of the store (or just `path`) with what its schema finds wrong; the
    /// documents no schema describes are checked as documents only.
    public func validate(_ path: DocumentPath? = nil) throws(CairnError) -> [(path: DocumentPath, problems: [String])] {
        var report: [(path: DocumentPath, problems: [String])] = []
        for finding in try findings(path) {
            if report.last?.path == finding.document {
                report[report.count - 1].problems.append(finding.description)
            } else {
                report.append((finding.document, [finding.description]))
            }
        }
        return report
    }

    /// What ``validate(_:)`` finds, one finding per broken rule, in the order of the
    /// documents (the user's document first, then the rest by path) and of their schemas'
    /// complaints.
    public func findings(_ path: DocumentPath? = nil) throws(CairnError) -> [DocumentFinding] {
        var paths: [DocumentPath] = []
        if let path {
            try checkOwned(path)
            guard FileSystem.kind(absolute(path.fileName)) == .file else {
                throw CairnError(.notFound, "there is no document at \(path)")
            }
            paths = [path]
        } else {
            paths = everyDocument()
        }
        let set = try schemaSet()
        var found: [DocumentFinding] = []
        for document in paths {
            guard let bytes = try FileSystem.read(absolute(document.fileName)) else { continue }
            let kind = set.kind(of: document)
            func finding(_ keyword: String, _ message: String) -> DocumentFinding {
                DocumentFinding(
                    document: document, pointer: "", keyword: keyword, schemaFile: kind?.file, schemaPath: nil, message: message)
            }
            let value: JSONValue
            do {
                value = try JSONParser().parse(try codec.json(bytes, at: document.fileName))
            } catch let error as JSONParseError {
                found.append(finding("json", error.description))
                continue
            } catch {
                found.append(finding("encryption", (error as? CairnError)?.message ?? "\(error)"))
                continue
            }
            guard case .object = value else {
                found.append(finding("type", "holds a JSON \(value.typeName); a document is an object"))
                continue
            }
            guard let kind else { continue }
            found += kind.validate(value, at: document).map { error in
                DocumentFinding(
                    document: document, pointer: error.pointer, keyword: error.keyword, schemaFile: kind.file,
                    schemaPath: error.schemaPath, message: error.message)
            }
            if !JSONValue.same(kind.filled(value) { count in self.documents(of: count, below: document) }, value) {
                found.append(
                    finding(
                        "derive",
                        "its derived fields (\(kind.computedFields.sorted().joined(separator: ", "))) are not what the documents give; put it again to compute them"
                    ))
            }
        }
        return found
    }
}
