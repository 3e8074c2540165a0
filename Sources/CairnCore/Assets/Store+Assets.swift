import CairnMerge
import CairnSystem
import Git
import GitFormat

/// Assets: files (a recording, a photo) a document's asset field points to. The document
/// holds the asset's SHA-256 and size; the store's trees hold its Git LFS pointer
/// (`.cairn/assets/<document>/.<field>`, derived from the document at each checkpoint); the
/// bytes are kept in `.git/lfs/objects` and on the remote's LFS server, uploaded by `sync`
/// before the commits that point to them, and downloaded by a device when it first reads them.
extension Store {
    /// The git config key of the largest asset a field without `maxBytes` takes, in bytes.
    public static let assetLimitConfigKey = "cairn.assetMaxBytes"
    /// The largest asset a field without `maxBytes` takes when the store's git config says
    /// nothing: 100 MB.
    public static let standardAssetLimit: Int64 = 100_000_000

    /// The assets this device holds.
    var assetObjects: AssetObjects { .local(gitdir: repository.gitdir) }

    /// Copies the file at `file` into the store as the asset of `field` of the existing
    /// document at `path`, and writes the document with the field pointing to it. A file over
    /// the field's size limit is refused before anything is written.
    @discardableResult
    public func addAsset(file: String, to field: String, of path: DocumentPath, mediaType: String? = nil) throws(CairnError)
        -> AssetReference
    {
        try checkOwned(path)
        _ = try assetField(field, of: path)
        guard let current = try document(at: path) else {
            throw CairnError(
                .notFound, "there is no document at \(path)", remedy: .putWithAsset(path: path, field: field))
        }
        return try put(current, at: path, attaching: [AssetAttachment(field: field, file: file, mediaType: mediaType)])[0]
    }

    /// Writes `value` at `path` (see ``put(_:at:)``) with each attachment's file copied into
    /// the store and its field pointing to it; the references, in the attachments' order.
    /// Every file is checked against its field's size limit before anything is written, and
    /// when the write is refused the copies no document points to are not kept.
    @discardableResult
    public func put(_ value: JSONValue, at path: DocumentPath, attaching attachments: [AssetAttachment]) throws(CairnError)
        -> [AssetReference]
    {
        try checkOwned(path)
        guard case .object(var fields) = value else {
            throw CairnError(.invalidInput, "a document is a JSON object; \(path) was given a JSON \(value.typeName)")
        }
        var limits: [Int64] = []
        for attachment in attachments {
            let limit = try assetLimit(of: assetField(attachment.field, of: path))
            let size = try FileSystem.check(Syscalls.status(of: attachment.file, followingLinks: true), "stat", attachment.file).size
            if Int64(size) > limit {
                throw CairnError(
                    .invalidInput,
                    "\(attachment.file) is \(size) bytes; \(attachment.field) of \(path) takes at most \(limit) bytes (x-cairn.assets maxBytes, else git config \(Self.assetLimitConfigKey)) — nothing was written"
                )
            }
            limits.append(limit)
        }
        // The copies and the write under one lock: a sync's sweep never sees the copies
        // before the document that points to them.
        return try locked("cannot write \(path)") { () throws -> [AssetReference] in
            var references: [AssetReference] = []
            var added: [String] = []
            do {
                for (attachment, limit) in zip(attachments, limits) {
                    let copied = try assetObjects.add(copying: attachment.file, limit: limit)
                    if copied.isNew { added.append(copied.reference.oid) }
                    let reference = AssetReference(oid: copied.reference.oid, size: copied.reference.size, mediaType: attachment.mediaType)
                    references.append(reference)
                    fields[attachment.field] = reference.json
                }
                let (filled, bytes) = try prepared(.object(fields), at: path)
                try write(filled, stored: bytes, at: path)
            } catch {
                // What this call copied in is not kept; an asset the store held before stays,
                // whoever points to it.
                for oid in added { _ = try? assetObjects.remove(oid) }
                throw error
            }
            return references
        }
    }

    /// Clears `field` of the document at `path` (null): at the next sync the asset's bytes
    /// leave the server and this device, unless another document points to them. Allowed in
    /// an append-only document too: a recording can always be deleted.
    public func removeAsset(_ field: String, of path: DocumentPath) throws(CairnError) {
        try checkOwned(path)
        _ = try assetField(field, of: path)
        guard case .object(var fields)? = try document(at: path) else {
            throw CairnError(.notFound, "there is no document at \(path)")
        }
        guard let value = fields[field], value != .null else {
            throw CairnError(.notFound, "\(path) holds no asset in \(field)")
        }
        fields[field] = .null
        try put(.object(fields), at: path)
    }

    /// The file holding the bytes of the asset in `field` of the document at `path` (as it
    /// was at `revision`, when given), downloaded from the remote when this device does not
    /// have it yet. An asset that was deleted (no current document points to it, and the
    /// server no longer has it) is refused with a line that says so.
    public func assetFile(_ field: String, of path: DocumentPath, revision: String? = nil) throws(CairnError) -> String {
        try checkOwned(path)
        _ = try assetField(field, of: path)
        let document: JSONValue?
        if let revision {
            document = try self.document(at: path, revision: revision)
        } else {
            document = try self.document(at: path)
        }
        let at = revision.map { " at \($0)" } ?? ""
        guard let document else {
            throw CairnError(.notFound, "there is no document at \(path)\(at)")
        }
        guard let value = document.field(field), value != .null else {
            throw CairnError(.notFound, "\(path)\(at) holds no asset in \(field)")
        }
        guard let reference = AssetReference(value) else {
            throw CairnError(.corrupt, "\(path)\(at): \(field) is not an asset reference (\(AssetReference.form))")
        }
        if let local = assetObjects.existingPath(of: reference.oid) { return local }
        let referenced = try translatingErrors("cannot read the store's asset pointers") { try isReferenced(reference.oid) }
        guard referenced || revision == nil else {
            throw CairnError(
                .notFound,
                "the asset in \(field) of \(path)\(at) was deleted: no current document points to it, so its bytes were removed from the server and the devices (history keeps its pointer only)"
            )
        }
        return try locked("cannot download the asset in \(field) of \(path)") { () throws -> String in
            try downloadAsset(reference, describedAs: "the asset in \(field) of \(path)\(at)")
            guard let local = assetObjects.existingPath(of: reference.oid) else {
                throw CairnError(.io, "the asset \(reference.oid) was downloaded but is not in \(assetObjects.folder)")
            }
            return local
        }
    }

    /// Every asset the store's documents point to, with whether its bytes are here.
    public func assets() throws(CairnError) -> [StoredAsset] {
        let set = try schemaSet()
        guard set.hasAssets else { return [] }
        var found: [StoredAsset] = []
        let local = assetObjects.oids()
        for path in documents(under: StoreLayout.usersFolder) {
            guard let kind = set.kind(of: path), !kind.assets.isEmpty, let document = try document(at: path) else { continue }
            for (field, reference) in kind.assetReferences(in: document).sorted(by: { $0.key < $1.key }) {
                found.append(StoredAsset(document: path, field: field, reference: reference, isLocal: local.contains(reference.oid)))
            }
        }
        return found.sorted { ($0.document, $0.field) < ($1.document, $1.field) }
    }

    /// The asset field `field` of the document at `path`, as the schema declares it.
    func assetField(_ field: String, of path: DocumentPath) throws(CairnError) -> AssetField {
        guard let kind = try schemaSet().kind(of: path) else {
            throw CairnError(.invalidInput, "no schema of the store's set describes \(path), so it has no asset fields")
        }
        guard let asset = kind.assets[field] else {
            let declared = kind.assets.keys.sorted()
            throw CairnError(
                .invalidInput,
                "\(field) is not an asset field of \(path) (\(kind.file)); "
                    + (declared.isEmpty
                        ? "its schema declares none (\"x-cairn\": {\"assets\": {\"\(field)\": {}}})"
                        : "its asset fields: \(declared.joined(separator: ", "))"))
        }
        if codec.isEncrypted {
            throw CairnError(
                .refused,
                "the store of user \(uid) is encrypted, and assets are not encrypted yet: their bytes would reach the server in the clear; nothing was written"
            )
        }
        return asset
    }

    /// The largest asset `field` takes: its `maxBytes`, else `cairn.assetMaxBytes`, else 100 MB.
    func assetLimit(of field: AssetField) throws(CairnError) -> Int64 {
        if let limit = field.maxBytes { return limit }
        let configured = try translatingErrors("cannot read the store's configuration") {
            try repository.config(Self.assetLimitConfigKey)
        }
        guard let configured else { return Self.standardAssetLimit }
        guard let limit = Int64(configured), limit >= 1 else {
            throw CairnError(
                .invalidInput,
                "\(Self.assetLimitConfigKey) is \(String(reflecting: configured)); set it to a whole number of bytes (git config \(Self.assetLimitConfigKey) 100000000)"
            )
        }
        return limit
    }

    /// Refuses a write of `value` at `path` whose asset fields point to assets this store
    /// does not hold, unless the document already pointed to them (an asset of another
    /// device, not read here yet).
    func checkAssetsPresent(_ value: JSONValue, at path: DocumentPath) throws(CairnError) {
        guard let kind = try schemaSet().kind(of: path), !kind.assets.isEmpty else { return }
        let references = kind.assetReferences(in: value)
        guard !references.isEmpty else { return }
        if codec.isEncrypted {
            throw CairnError(
                .refused,
                "the store of user \(uid) is encrypted, and assets are not encrypted yet: \(path) may not point to one; nothing was written"
            )
        }
        let current = try document(at: path).map { kind.assetReferences(in: $0) } ?? [:]
        for (field, reference) in references.sorted(by: { $0.key < $1.key }) where current[field]?.oid != reference.oid {
            guard let size = assetObjects.size(of: reference.oid) else {
                throw CairnError(
                    .invalidInput,
                    "\(path): \(field) points to the asset \(reference.oid), which this store does not hold",
                    remedy: .addAsset(path: path, field: field))
            }
            if size != reference.size {
                throw CairnError(
                    .invalidInput,
                    "\(path): \(field) says the asset \(reference.oid) is \(reference.size) bytes, and it is \(size)",
                    remedy: .addAsset(path: path, field: field))
            }
        }
    }

    /// Whether the asset `oid` is pointed to by the last checkpoint or a document of the
    /// working tree.
    func isReferenced(_ oid: String) throws -> Bool {
        try referencedAssets().contains(oid)
    }

    /// The assets the last checkpoint, the working tree's pointers and the documents written
    /// since the last checkpoint point to: those this device keeps.
    func referencedAssets() throws -> Set<String> {
        var oids = Set(try workingAssetPointers().values.map(\.oid))
        if let head = try repository.headCommit() { oids.formUnion(try AssetSweep.oids(in: repository, tree: head.treeID)) }
        let set = try schemaSet()
        for file in try pendingFiles() {
            guard let path = DocumentPath(fileName: file), let kind = set.kind(of: path), !kind.assets.isEmpty,
                let bytes = try FileSystem.read(absolute(file))
            else { continue }
            oids.formUnion(kind.assetReferences(in: try parseStored(bytes, file: file)).values.map(\.oid))
        }
        return oids
    }

    /// The assets the Git LFS pointers of `tree` name, by pointer file.
    func assetPointers(inTree tree: ObjectID) throws -> [String: AssetReference] {
        try repository.assetPointers(inTree: tree)
    }

    /// The assets the pointer files of the working tree name, by pointer file.
    func workingAssetPointers() throws -> [String: AssetReference] {
        var pointers: [String: AssetReference] = [:]
        func visit(_ folder: String) throws {
            for name in FileSystem.names(in: absolute(folder)) where !name.hasPrefix(StoreLayout.temporaryFilePrefix) {
                let path = folder + "/" + name
                switch FileSystem.kind(absolute(path)) {
                case .folder?: try visit(path)
                case .file?:
                    if let bytes = try FileSystem.read(absolute(path)), let reference = AssetReference(pointer: bytes) {
                        pointers[path] = reference
                    }
                default: break
                }
            }
        }
        try visit(StoreLayout.assetsFolder)
        return pointers
    }

    /// Brings the working tree's asset pointers of the documents at `paths` (pending files)
    /// in line with the documents, and returns the pointer files written or removed, for the
    /// checkpoint to stage with them. The caller holds the lock.
    func deriveAssetPointers(of paths: [String]) throws -> [String] {
        let set = try schemaSet()
        // A set that declares no assets (any more) still clears the pointers left behind.
        guard set.hasAssets || FileSystem.kind(absolute(StoreLayout.assetsFolder)) == .folder else { return [] }
        var changed: [String] = []
        for file in paths {
            guard let path = DocumentPath(fileName: file) else { continue }
            if set.kind(of: path)?.assets.isEmpty != false, FileSystem.kind(absolute(StoreLayout.assetFolder(of: path))) != .folder {
                continue
            }
            let document = try FileSystem.read(absolute(file)).map { try parseStored($0, file: file) }
            let expected = set.assetPointers(of: document, at: path)
            let folder = StoreLayout.assetFolder(of: path)
            for name in FileSystem.names(in: absolute(folder)) {
                let pointer = folder + "/" + name
                guard FileSystem.kind(absolute(pointer)) == .file, expected[pointer] == nil else { continue }
                _ = try FileSystem.removeFile(absolute(pointer))
                changed.append(pointer)
            }
            FileSystem.removeEmptyFolders(from: absolute(folder), upTo: absolute(StoreLayout.ownFolder))
            for (pointer, bytes) in expected.sorted(by: { $0.key < $1.key }) {
                let present = try FileSystem.read(absolute(pointer))
                if present == bytes { continue }
                // The asset's own bytes, put there by git-lfs's smudge filter, stay: git's
                // clean filter makes the same pointer of them.
                if let present, AssetReference(pointer: present) == nil,
                    let reference = AssetReference(pointer: bytes), Int64(present.count) == reference.size
                {
                    continue
                }
                try FileSystem.makeFolders(absolute(folder))
                try FileSystem.writeAtomically(bytes, to: absolute(pointer))
                changed.append(pointer)
            }
        }
        if !changed.isEmpty { try ensureAssetAttributes(&changed) }
        return changed
    }

    /// The Git LFS pointer of the asset in `field` of the document at `path` as its file in
    /// the working tree holds it; nil when it holds none.
    func assetPointer(of path: DocumentPath, field: String) throws -> [UInt8]? {
        guard let bytes = try FileSystem.read(absolute(path.fileName)) else { return nil }
        return try schemaSet().assetPointers(of: parseStored(bytes, file: path.fileName), at: path)[
            StoreLayout.assetPointerFile(of: path, field: field)]
    }

    /// The line of `.gitattributes` that hands the asset pointers to Git LFS.
    static let assetAttributes = "\(StoreLayout.assetsFolder)/** filter=lfs diff=lfs merge=lfs -text"
    /// The lines a store's `.gitattributes` gets for its assets: a comment and ``assetAttributes``.
    static let assetAttributesLines = "# Assets: Git LFS pointers, derived from the documents (cairn asset).\n" + assetAttributes + "\n"

    /// Adds ``assetAttributes`` to the store's `.gitattributes` when it lacks it (a store
    /// made before its set declared assets), noting the file among `changed`.
    private func ensureAssetAttributes(_ changed: inout [String]) throws {
        let file = absolute(StoreLayout.attributesFile)
        let text = String(decoding: try FileSystem.read(file) ?? [], as: UTF8.self)
        guard !text.split(separator: "\n").contains(where: { $0 == Self.assetAttributes }) else { return }
        let updated =
            text + (text.isEmpty || text.hasSuffix("\n") ? "" : "\n")
            + Self.assetAttributesLines
        try FileSystem.writeAtomically(Array(updated.utf8), to: file)
        changed.append(StoreLayout.attributesFile)
    }
}
