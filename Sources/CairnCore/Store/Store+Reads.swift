import CairnMerge
import CairnSystem
import Git

extension Store {
    /// The document at `path` as it is in the working tree, or nil when there is none.
    ///
    /// A document read before is not read and parsed again while its file keeps its stamp
    /// (inode, size, modification and change times: one `stat`). A file changed in the last
    /// second is not remembered, since a second change within one tick of the file system's
    /// clock could keep its stamp. At most `documentCacheLimit` documents are kept.
    public func document(at path: DocumentPath) throws(CairnError) -> JSONValue? {
        try checkOwned(path)
        let file = absolute(path.fileName)
        guard let stamp = FileStamp(path: file) else {
            documentCache[path] = nil
            guard let bytes = try FileSystem.read(file) else { return nil }
            return try parseStored(bytes, file: path.fileName)
        }
        if let cached = documentCache[path], cached.stamp == stamp { return cached.value }
        guard let bytes = try FileSystem.read(file) else { return nil }
        let value = try parseStored(bytes, file: path.fileName)
        if stamp.isSettled(seconds: 1, at: fileClock()), FileStamp(path: file) == stamp {
            if documentCache.count >= Self.documentCacheLimit { documentCache.removeAll(keepingCapacity: true) }
            documentCache[path] = (stamp, value)
        } else {
            documentCache[path] = nil
        }
        return value
    }

    /// How many parsed documents a store keeps for ``document(at:)``.
    static let documentCacheLimit = 2_048

    /// The canonical bytes of the document at `path`, or nil when there is none.
    public func canonicalBytes(at path: DocumentPath) throws(CairnError) -> [UInt8]? {
        try checkOwned(path)
        guard let bytes = try FileSystem.read(absolute(path.fileName)) else { return nil }
        // Files written by the store are canonical already; a hand edit may not be.
        return try parseStored(bytes, file: path.fileName).canonicalBytes()
    }

    /// The document at `path` as it was in the commit `revision` names (`HEAD~2`, an id,
    /// `main`), or nil when it did not exist there.
    public func document(at path: DocumentPath, revision: String) throws(CairnError) -> JSONValue? {
        try checkOwned(path)
        let commit = try resolve(revision)
        let content: [UInt8]
        do {
            guard let blob = try repository.blobID(at: path.fileName, inCommit: commit.id) else { return nil }
            content = try repository.blobContent(blob)
        } catch {
            throw CairnError.git(error, doing: "cannot read \(path) at \(revision)")
        }
        return try parseStored(content, file: path.fileName, what: "\(path.fileName) at \(revision)")
    }

    /// The IDs of the documents in a collection, sorted by their bytes; [] for a collection
    /// that holds none.
    public func list(_ collection: CollectionPath) throws(CairnError) -> [String] {
        try checkOwned(collection)
        var ids: [String] = []
        for name in FileSystem.names(in: absolute(collection.description)) where DocumentID.stem(ofFileName: name) != nil {
            guard FileSystem.kind(absolute(collection.description + "/" + name)) == .file,
                let document = DocumentPath(fileName: collection.description + "/" + name),
                document.collection == collection
            else { continue }
            if collection.segments.count == 1, document.id != uid { continue }
            ids.append(document.id)
        }
        return ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The commit a revision names.
    package func resolve(_ revision: String) throws(CairnError) -> Commit {
        do {
            return try repository.resolveCommit(revision)
        } catch {
            // A branch that names a commit the store cannot read is damage, not a typo.
            if let head = try? repository.reference(branchReference) {
                do {
                    _ = try repository.commit(head)
                } catch let damage where damage.isDamage {
                    throw CairnError.damaged(damage, doing: "cannot resolve \(revision)")
                } catch {}
            }
            if error.code == .notFound || error.code == .invalidSpec || error.code == .ambiguous {
                throw CairnError(.notFound, "unknown revision \"\(revision)\": \(error.message)", remedy: .listCheckpoints, cause: error)
            }
            throw CairnError.git(error, doing: "cannot resolve \(revision)")
        }
    }
}

extension Store {
    /// How many documents the store holds (`users/<uid>` and everything under it).
    public func documentCount() throws(CairnError) -> Int {
        let own = FileSystem.kind(absolute(StoreLayout.userFile(of: uid))) == .file ? 1 : 0
        return own + documents(under: StoreLayout.documentsFolder(of: uid), sorted: false).count
    }
}
