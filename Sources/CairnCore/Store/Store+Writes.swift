import CairnMerge
import CairnSystem
import Git

extension Store {
    /// What a put did.
    public enum PutOutcome: Sendable, Hashable {
        case created, updated, unchanged
    }

    /// Writes a document (a JSON object) in canonical form, atomically: a failed or
    /// interrupted write leaves the old document as it was. The path is recorded as pending
    /// for the next checkpoint. With a schema set, the document is checked against its
    /// schema (its derived fields computed first), and an existing append-only document is
    /// never changed. A document of a kind that pins content (`x-cairn.pins`) and gives no
    /// version gets the version of the item downloaded on this device, if it is.
    @discardableResult
    public func put(_ value: JSONValue, at path: DocumentPath) throws(CairnError) -> PutOutcome {
        let checked = try prepared(value, at: path)
        let generation = schemaSetGeneration
        return try locked("cannot write \(path)", documentsOnly: true) { () throws -> PutOutcome in
            // A set changed before the lock was taken (by the writer waited for, say) checks
            // the document again.
            let (filled, bytes) = schemaSetGeneration == generation ? checked : try prepared(value, at: path)
            return try write(filled, stored: bytes, at: path)
        }
    }

    /// A document as ``put(_:at:)`` writes it: checked, filled, canonical, and as stored
    /// (sealed, in an encrypted store).
    package func prepared(_ value: JSONValue, at path: DocumentPath) throws(CairnError) -> (filled: JSONValue, stored: [UInt8]) {
        try checkOwned(path)
        // The set git may have brought since: it pins and checks the document.
        forgetSchemaSetIfItsFolderChanged()
        guard case .object = value else {
            throw CairnError(.invalidInput, "a document is a JSON object; \(path) was given a JSON \(value.typeName)")
        }
        // A pinning kind gets the version of the content it answers before the schema sees it.
        let filled = try checked(pinned(value, at: path), at: path)
        try checkAssetsPresent(filled, at: path)
        let canonical = filled.canonicalBytes()
        let limit = JSONLimits.documents.maxBytes
        if canonical.count > limit {
            throw CairnError(
                .invalidInput,
                "\(path) is \(canonical.count) bytes in canonical form; a document is at most \(limit) bytes — split it into smaller documents"
            )
        }
        return (filled, try codec.stored(canonical, at: path.fileName))
    }

    /// Writes a prepared document; the caller holds the lock.
    @discardableResult
    package func write(_ filled: JSONValue, stored bytes: [UInt8], at path: DocumentPath) throws -> PutOutcome {
        var (filled, bytes) = (filled, bytes)
        // A document that counts others was counted before the lock was taken: counted again
        // under it, so that a write below it made in between is not lost from its counts.
        if let kind = try schemaSet().kind(of: path), !kind.counted.isEmpty {
            let counted = kind.filled(filled, documents: { count in self.documents(of: count, below: path) })
            if !JSONValue.same(counted, filled) {
                (filled, bytes) = (counted, try codec.stored(counted.canonicalBytes(), at: path.fileName))
            }
        }
        let file = absolute(path.fileName)
        let old = try FileSystem.read(file)
        if old == bytes { return .unchanged }
        if let old {
            try checkAppendOnly(path, change: .changed, from: old, to: filled)
        } else {
            try checkCaseCollisions(path)
        }
        // What the counts above it see change, if any count takes documents like it: the
        // document that was there, as a full count reads it (a symbolic link is no document).
        var counted: [CountedChange] = []
        if try changesCounts(path) {
            let before = FileSystem.kind(file) == .file ? old.flatMap { try? parseStored($0, file: path.fileName) } : nil
            counted = [CountedChange(path: path, old: before, new: filled)]
        }
        try journal.append([path.fileName])
        try changingCounts(counted) {
            if old != nil {
                try FileSystem.replaceContents(
                    of: file, with: bytes, spare: repository.gitdir + StoreLayout.spareFile,
                    readable: true)
            } else {
                try FileSystem.makeFolders(absolute(path.collection.description))
                try FileSystem.writeAtomically(bytes, to: file)
            }
        }
        return old == nil ? .created : .updated
    }

    /// Parses JSON text and writes it as the document at `path` (see ``put(_:at:)``).
    @discardableResult
    public func put(json bytes: [UInt8], at path: DocumentPath) throws(CairnError) -> PutOutcome {
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            throw CairnError(.invalidInput, "\(path): \(error.description); nothing was written", cause: error)
        }
        return try put(value, at: path)
    }

    /// Deletes a document. With `recursive`, its subcollections go too (the cascade delete);
    /// without, a document that has subcollections is refused. Returns the documents removed.
    @discardableResult
    public func delete(_ path: DocumentPath, recursive: Bool = false) throws(CairnError) -> [DocumentPath] {
        try checkOwned(path)
        return try locked("cannot delete \(path)", documentsOnly: true) { () throws -> [DocumentPath] in
            let own = FileSystem.kind(absolute(path.fileName)) == .file ? [path] : []
            let below = documents(under: path.folderName)
            if !recursive, !below.isEmpty {
                throw CairnError(
                    .invalidInput, "\(path) has subcollections holding \(below.count) document(s); use rm -r to delete them too")
            }
            let removed = own + below
            if removed.isEmpty {
                throw CairnError(.notFound, "there is no document at \(path)")
            }
            for document in removed { try checkAppendOnly(document, change: .deleted) }
            // What the counts above lose: each counted document as it was.
            var counted: [CountedChange] = []
            for document in removed where try changesCounts(document) {
                let file = absolute(document.fileName)
                let old =
                    FileSystem.kind(file) == .file
                    ? try FileSystem.read(file).flatMap { try? parseStored($0, file: document.fileName) } : nil
                counted.append(CountedChange(path: document, old: old, new: nil))
            }
            try journal.append(removed.map(\.fileName))
            try changingCounts(counted) {
                for document in removed {
                    try FileSystem.removeFile(absolute(document.fileName))
                }
                removeEmptyFolders(below: path.folderName)
                FileSystem.removeEmptyFolders(from: absolute(path.collection.description), upTo: folder)
            }
            return removed
        }
    }

    /// Every document in the working tree: the user's own, then the rest in path order.
    func everyDocument() -> [DocumentPath] {
        var paths: [DocumentPath] = []
        if let user = StoreLayout.userDocument(of: uid), FileSystem.kind(absolute(user.fileName)) == .file {
            paths.append(user)
        }
        return paths + documents(under: StoreLayout.documentsFolder(of: uid))
    }

    /// The documents stored in the folder `relative` and its subfolders, in path order
    /// (`sorted` false: in no order, as for a count).
    package func documents(under relative: String, sorted: Bool = true) -> [DocumentPath] {
        var found: [DocumentPath] = []
        // As any listing of the folder: a link at `relative` itself is followed; below it,
        // only what the listing calls a folder is entered.
        for (name, kind) in FileSystem.entries(in: absolute(relative), followingLink: true) {
            let child = relative + "/" + name
            switch kind {
            case .file:
                if let document = DocumentPath(fileName: child) { found.append(document) }
            case .folder:
                found += documents(under: child, sorted: false)
            default:
                break
            }
        }
        return sorted ? found.sorted() : found
    }

    /// Removes the empty folders at and below `relative`, deepest first.
    private func removeEmptyFolders(below relative: String) {
        let path = absolute(relative)
        for name in FileSystem.names(in: path) where FileSystem.kind(path + "/" + name) == .folder {
            removeEmptyFolders(below: relative + "/" + name)
        }
        FileSystem.removeFolderIfEmpty(path)
    }

    /// Refuses a new ID that differs only in case (or Unicode normalization) from one its
    /// collection already has: on a case-insensitive file system the two would be one file.
    /// Only names that do not exist yet are checked, so writes to existing documents list no
    /// folder; a large collection's names are kept while the store is open
    /// (``WatchedFolders``), so a create in it lists it once.
    package func checkCaseCollisions(_ path: DocumentPath) throws(CairnError) {
        // A document that exists was checked when it was created.
        if FileSystem.kind(absolute(path.fileName)) == .file { return }
        var parent = folder
        for (position, id) in path.segments.enumerated() {
            let isLast = position == path.segments.count - 1
            let exact = parent + "/" + id
            let exists =
                isLast
                ? FileSystem.kind(exact + ".json") == .file
                : (FileSystem.kind(exact) == .folder || FileSystem.kind(exact + ".json") == .file)
            if !exists, let name = watchedFolders.collision(of: id, in: parent) {
                let sibling = DocumentID.stem(ofFileName: name) ?? name
                throw CairnError(
                    .invalidInput,
                    "invalid ID \"\(id)\" in \(path): \"\(sibling)\" already exists in the same collection and differs only in case or accents; a case-insensitive file system would merge them — use \"\(sibling)\" or another ID"
                )
            }
            parent = exact
        }
    }
}
