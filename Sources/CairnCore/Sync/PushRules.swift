import CairnMerge
import Git
import GitFormat

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The rules every push to a user's remote must meet, applied by the server's `pre-receive`
/// hook to what it receives and by a device to what it is about to push (so that a push the
/// server would refuse is refused before it is sent):
///
/// - only `main` changes, never deleted, always a fast-forward;
/// - every new commit holds only what a store of that user may hold (``StoreTree``);
/// - every document that arrives is at most 1 MiB, valid JSON, and valid under the schema set;
/// - an append-only document that exists is never changed or deleted (but for the version a
///   merge of two concurrent creations keeps, and what retention expires; in an audit of one
///   commit, also what a restore takes back to the source its commit names, and the answers
///   never pushed that a content discard its commit records deletes);
/// - every derived field of a document that arrives, or that counts documents that arrive or
///   go, is what its schema computes;
/// - the Git LFS pointers in `.cairn/assets/` are those the documents' asset fields make, and
///   on a server every asset they name is in the server's asset storage (uploaded first);
///   clearing an asset field is the one change an append-only document takes;
/// - on a server, every merge commit that arrives is what the policies give from its parents
///   (``MergeAttestation``), unless the store is encrypted (the server cannot read it).
///
/// An encrypted store's repository (its `.cairn/store.json` says `"encrypted": true`) holds
/// documents the server cannot read: there every document must be sealed for its path and
/// within the size limit, append-only documents are compared by blob id (sealing is
/// deterministic: an unchanged document is an unchanged blob), and the checks that read
/// documents — schema, derived fields, retention — are left to the devices, which hold the
/// key. A store never changes between plain and encrypted.
package struct PushRules {
    /// The store's user.
    package let uid: String
    let repository: Repository
    /// Where the server keeps its own copy of the schema set (`<uid>.git/cairn/schema/`), or
    /// nil on a device.
    let serverSchemaFolder: String?
    /// Whether documents are checked against the schema set of the pushed tree before the
    /// one the repository holds (a device's check of its own push), not after.
    let checksAgainstPushedSet: Bool
    /// What a device reads its documents with (it holds the key of an encrypted store); nil
    /// on a server, which reads a plain store's documents and no encrypted one's.
    let deviceCodec: DocumentCodec?

    /// Where the server keeps the repository's assets (``AssetSweep/storage(of:)``); nil on a
    /// device, which uploads its assets before it pushes.
    let assetStorage: AssetObjects?
    /// Whether every merge commit that arrives is merged again (``MergeAttestation``): on a
    /// server; on a device, every merge but its own (those carrying `ownDevice` as their
    /// `Cairn-Device`), which are its policies' by construction. An audit checks each merge
    /// once, on its own.
    var attestsMerges = false
    /// The device's own ID (`Cairn-Device`), whose merges a device does not merge again.
    var ownDevice: String? = nil
    /// Whether every finding is reported (an audit), rather than a push refused at the first
    /// file a store cannot hold.
    var reportsEveryFinding = false
    /// The schema sets read from trees, by the id of their `.cairn/schema` folder: an audit
    /// checks thousands of commits that share a handful of sets.
    let schemaSets = SchemaSetCache()

    /// Schema sets already read, by the id of the folder they were read from.
    final class SchemaSetCache {
        var sets: [ObjectID: SchemaSet] = [:]
    }

    /// The server's rules for the bare repository `repository` of `uid`: documents are checked
    /// against the server's own schema set, else the one the repository held before the push,
    /// and every asset a pushed tree points to must be in the server's asset storage.
    package static func server(_ repository: Repository, uid: String) -> PushRules {
        PushRules(
            uid: uid, repository: repository, serverSchemaFolder: repository.gitdir + StoreLayout.serverSchemaFolder,
            checksAgainstPushedSet: false, deviceCodec: nil, assetStorage: AssetSweep.storage(of: repository),
            attestsMerges: true)
    }

    /// The rules `cairn verify` applies to each commit of a history against its parent: the
    /// documents against the schema set of the commit's own tree, read with `codec` (a
    /// store's, which opens an encrypted store's documents; nil for a server's repository,
    /// which reads a plain store's and checks an encrypted store's as sealed). Asset storage
    /// is not looked at.
    package static func audit(_ repository: Repository, uid: String, codec: DocumentCodec?) -> PushRules {
        PushRules(
            uid: uid, repository: repository, serverSchemaFolder: nil, checksAgainstPushedSet: true, deviceCodec: codec,
            assetStorage: nil, reportsEveryFinding: true)
    }

    /// A device's rules for what it is about to push from `repository`, the store of `uid`,
    /// against the schema set it pushes (a device migrating to a newer set checks its
    /// documents by that one).
    package static func device(_ repository: Repository, uid: String, codec: DocumentCodec, device: String) -> PushRules {
        PushRules(
            uid: uid, repository: repository, serverSchemaFolder: nil, checksAgainstPushedSet: true, deviceCodec: codec,
            assetStorage: nil, attestsMerges: true, ownDevice: device)
    }

    /// The refusals of one update of `reference` from `old` to `new` (none: it is accepted).
    package func refusals(updating reference: String, from old: ObjectID?, to new: ObjectID?) throws -> [String] {
        guard reference == "refs/heads/" + Store.branch else {
            return ["only \(Store.branch) holds progress; \(reference) is refused"]
        }
        guard let new else { return ["deleting \(Store.branch) is refused: progress is kept for good"] }
        if let old, old != new, try !repository.isDescendant(new, of: old) {
            return ["the push is not a fast-forward of \(old.short): history is never rewritten; fetch and merge first"]
        }
        // A push is refused at the first file out of place; an audit names every one, and
        // goes on to the documents.
        var refusals = try Store.treeRefusals(
            in: repository, from: new, hiding: old.map { [$0] } ?? [], uid: uid,
            limit: reportsEveryFinding ? .max : 1
        )
        .map { "commit \($0.0.short): \($0.1)" }
        if !reportsEveryFinding, !refusals.isEmpty { return refusals }
        let oldTree = try old.map { try repository.commit($0).treeID }
        let newTree = try repository.commit(new).treeID
        let encrypted = try marksEncrypted(newTree)
        if let old, let oldTree, try marksEncrypted(oldTree) != encrypted {
            return [
                "the push turns the store \(encrypted ? "encrypted" : "plain") after \(old.short): a store is encrypted or plain from its creation, for good"
            ]
        }
        // A server merges each merge it receives again; a device, those another tool made.
        if attestsMerges, let codec = deviceCodec ?? (encrypted ? nil : .plain) {
            let attestation = MergeAttestation(repository: repository, codec: codec)
            for id in try repository.commits(from: new, hiding: old.map { [$0] } ?? []) {
                let commit = try repository.commit(id)
                if let ownDevice, commit.parentIDs.count > 1, Store.trailer(Store.deviceTrailer, in: commit.message) == ownDevice {
                    continue
                }
                if let refusal = try attestation.refusal(of: commit) {
                    return ["commit \(id.short): \(refusal)"]
                }
            }
        }
        // The documents are read with the device's codec, or as plain JSON on a server; an
        // encrypted store's server reads none.
        let codec: DocumentCodec? = deviceCodec ?? (encrypted ? nil : .plain)
        let set = try schemaSet(oldTree: oldTree, newTree: newTree)
        var changed: [DocumentPath] = []
        let (pushedFrom, pushedTo) = (old, new)
        let message = reportsEveryFinding ? try repository.commit(new).message : ""
        let discards = ContentDecision.recorded(in: message).filter { $0.decision == .discard }
        let restoredFrom = try Store.trailer(Store.restoreSourceTrailer, in: message).flatMap(ObjectID.init(hex:))
            .flatMap { source in try repository.isDescendant(new, of: source) ? source : nil }
        var assetDocuments: Set<DocumentPath> = []
        for difference in try repository.differences(among: [oldTree, newTree]) {
            if let pointer = StoreLayout.assetField(ofPointerFile: difference.path) {
                assetDocuments.insert(pointer.document)
                continue
            }
            guard let document = DocumentPath(fileName: difference.path) else { continue }
            changed.append(document)
            let kind = set?.kind(of: document)
            if kind?.assets.isEmpty == false { assetDocuments.insert(document) }
            if let old = difference.entries[0], let kind, kind.policy.isAppendOnly,
                try !clearsAssetsOnly(document, kind: kind, was: old.id, now: difference.entries[1]?.id, codec: codec)
            {
                // An answer the user discarded (`cairn content discard`) that was never pushed:
                // the commit names the pinned version. Only an audit meets one: a push carries
                // the answer's creation and its discard together, and the remote never held it.
                if reportsEveryFinding, difference.entries[1] == nil,
                    try isDiscarded(document, old: old, kind: kind, decisions: discards, codec: codec)
                {
                    continue
                }
                // A restore (`cairn restore`), the way out of a refused push, taking it back to
                // the version of the commit it names (the remote's, for one the remote holds).
                if reportsEveryFinding, let restoredFrom,
                    try repository.blobID(at: document.fileName, inCommit: restoredFrom) == difference.entries[1]?.id
                {
                    continue
                }
                if difference.entries[1] == nil, let retention = kind.retention {
                    // Unread, an encrypted store's expiry is checked by count: the collection
                    // keeps at least as many as its retention keeps.
                    let expired =
                        try codec.map { try isExpired(document, old: old, under: retention, kind: kind, in: newTree, set: set, codec: $0) }
                        ?? (documentCount(of: kind, in: document.collection, tree: newTree, set: set) >= retention.keep)
                    if expired { continue }
                }
                // Two devices created it offline: the version the merge kept is checked below.
                let concurrent =
                    try difference.entries[1].map { now in
                        try set.map {
                            try keepsConcurrentCreation(
                                document, was: old.id, now: now.id, set: $0,
                                pushedFrom: pushedFrom, to: pushedTo, codec: codec)
                        } ?? false
                    } ?? false
                if !concurrent {
                    let change = difference.entries[1] == nil ? "deleted" : "changed"
                    refusals.append("\(document) is append-only (\(kind.file)): an existing document is never \(change)")
                    continue
                }
            }
            guard let entry = difference.entries[1] else { continue }
            var bytes = try repository.blobContent(entry.id)
            if encrypted {
                if let refusal = Self.sealedRefusal(of: bytes, at: document) {
                    refusals.append(refusal)
                    continue
                }
                guard let codec else { continue }
                do {
                    bytes = try codec.json(bytes, at: document.fileName)
                } catch {
                    // A key this reader lacks is not a document out of place: it cannot judge it.
                    if error.missingStoreKey != nil { throw error }
                    refusals.append(error.message)
                    continue
                }
            }
            if let refusal = Self.refusal(of: bytes, at: document, kind: kind) {
                refusals.append(refusal)
            }
        }
        refusals += try assetRefusals(of: assetDocuments.sorted(), oldTree: oldTree, newTree: newTree, set: set, codec: codec)
        // Derived fields as the schema computes them, in the tree as pushed: a commit that
        // left them stale may be followed by one that computed them.
        if let set, let codec {
            refusals += try TreeDerivations(repository: repository, schemaSet: set, codec: codec)
                .corrections(in: newTree, after: changed).flatMap(\.mismatches).map(\.description)
        }
        return refusals
    }

    /// Whether the tree's `.cairn/store.json` marks an encrypted store.
    func marksEncrypted(_ tree: ObjectID) throws -> Bool {
        guard let entry = try repository.entry(at: StoreLayout.identityFile, inTree: tree), !entry.isTree,
            case .bool(true)? = (try? JSONParser().parse(repository.blobContent(entry.id)))?.field("encrypted")
        else { return false }
        return true
    }

    /// Why the blob `bytes` cannot be the document at `path` of an encrypted store, read
    /// without its key: not sealed (a plain document in an encrypted store), sealed for
    /// another path, or larger than the largest document sealed; nil when it can.
    static func sealedRefusal(of bytes: [UInt8], at document: DocumentPath) -> String? {
        guard DocumentCipher.isSealed(bytes) else {
            return "\(document) is not encrypted, and the store is: every document of an encrypted store is sealed with its key"
        }
        guard let path = DocumentCipher.path(of: bytes) else {
            return "\(document) is not an encrypted document of a format this server reads (format \(DocumentCipher.formatVersion))"
        }
        guard path == document.fileName else {
            return "\(document) holds the encrypted document of \(path): a document is sealed for its own path"
        }
        let limit = JSONLimits.documents.maxBytes + DocumentCipher.overhead(forPath: document.fileName)
        guard bytes.count <= limit else {
            return
                "\(document) is \(bytes.count) bytes encrypted; a document is at most \(JSONLimits.documents.maxBytes) bytes (\(limit) encrypted)"
        }
        return nil
    }

    /// Why the file `bytes` cannot be the document at `path`: too large, not JSON, not an
    /// object, or refused by its schema (`kind`); nil when it can.
    static func refusal(of bytes: [UInt8], at document: DocumentPath, kind: SchemaSet.Kind?) -> String? {
        guard bytes.count <= JSONLimits.documents.maxBytes else {
            return "\(document) is \(bytes.count) bytes; a document is at most \(JSONLimits.documents.maxBytes) bytes"
        }
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            return "\(document) is not valid JSON: \(error.description)"
        }
        guard case .object = value else {
            return "\(document) holds a JSON \(value.typeName); a document is an object"
        }
        if let kind, let first = kind.validate(value, at: document).first {
            return "\(document) breaks its schema (\(kind.file)) at \(first)"
        }
        return nil
    }

    /// Whether deleting `document` is what its kind's retention does: the collection keeps at
    /// least `keep` documents later than it.
    private func isExpired(
        _ document: DocumentPath, old: TreeEntry, under retention: RetentionPolicy,
        kind: SchemaSet.Kind, in tree: ObjectID, set: SchemaSet?, codec: DocumentCodec
    ) throws -> Bool {
        var documents: [DocumentPath: JSONValue] = [document: try codec.document(repository.blobContent(old.id), at: document.fileName)]
        for file in try repository.files(under: document.collection.description, inTree: tree) {
            guard let path = DocumentPath(fileName: file.path), path.collection == document.collection,
                set?.kind(of: path)?.file == kind.file, let entry = file.entries[0]
            else { continue }
            documents[path] = try codec.document(repository.blobContent(entry.id), at: file.path)
        }
        return retention.expired(documents).contains(document)
    }

    /// Whether deleting the append-only `document` is a discard the commit records: its old
    /// version pins an item's version that one of `decisions` names. Read without a key (an
    /// encrypted store's server), a discard the commit records for any version is trusted.
    private func isDiscarded(
        _ document: DocumentPath, old: TreeEntry, kind: SchemaSet.Kind,
        decisions: [(decision: ContentDecision, collection: String, item: String, version: String)],
        codec: DocumentCodec?
    ) throws -> Bool {
        guard let pin = kind.pin, !decisions.isEmpty else { return false }
        guard let codec else { return decisions.contains { $0.collection == pin.collection } }
        let value = try codec.document(repository.blobContent(old.id), at: document.fileName)
        guard let item = pin.item(of: value), let version = pin.version(of: value) else { return false }
        return decisions.contains { $0.collection == pin.collection && $0.item == item && $0.version == version }
    }

    /// How many documents of `kind` the collection holds in `tree`.
    private func documentCount(of kind: SchemaSet.Kind, in collection: CollectionPath, tree: ObjectID, set: SchemaSet?) throws -> Int {
        try repository.files(under: collection.description, inTree: tree).count { file in
            guard let path = DocumentPath(fileName: file.path), path.collection == collection else { return false }
            return set?.kind(of: path)?.file == kind.file
        }
    }

    /// Whether an append-only document changed from blob `was` to `now` because two devices
    /// created it offline and the merge kept the other one: the pushed history created it as
    /// `now` on a line that never held it (a commit whose parent lacks it), and the policy,
    /// given the two creations, keeps `now`. Any other change of an existing one is refused.
    /// Without a codec (an encrypted store's server) the policy cannot be asked: the two
    /// creations on separate lines are enough.
    private func keepsConcurrentCreation(
        _ document: DocumentPath, was: ObjectID, now: ObjectID, set: SchemaSet,
        pushedFrom old: ObjectID?, to new: ObjectID, codec: DocumentCodec?
    ) throws -> Bool {
        var createdApart = false
        for id in try repository.commits(from: new, hiding: old.map { [$0] } ?? []) where !createdApart {
            guard try repository.blobID(at: document.fileName, inCommit: id) == now else { continue }
            for parent in try repository.commit(id).parentIDs where try repository.blobID(at: document.fileName, inCommit: parent) == nil {
                createdApart = true
            }
        }
        guard createdApart else { return false }
        guard let codec else { return true }
        func read(_ blob: ObjectID) throws -> JSONValue? {
            do {
                return try codec.document(repository.blobContent(blob), at: document.fileName)
            } catch let error as CairnError where error.missingStoreKey != nil {
                // Not a document that fails to open: one this reader cannot judge.
                throw error
            } catch {
                return nil
            }
        }
        guard let before = try read(was), let after = try read(now) else { return false }
        return JSONValue.same(set.merge(document, base: nil, ours: before, theirs: after).value, after)
    }

    /// The schema set to check documents against: the server's own (`cairn/schema/` in the
    /// bare repository), else the set the repository held before the push, else the pushed one.
    private func schemaSet(oldTree: ObjectID?, newTree: ObjectID) throws -> SchemaSet? {
        var files: [String: [UInt8]] = [:]
        if let serverSchemaFolder {
            for name in FileSystem.names(in: serverSchemaFolder) where SchemaSetFiles.isSetFile(name) {
                files[name] = try FileSystem.read(serverSchemaFolder + "/" + name)
            }
        }
        if files.isEmpty {
            let trees = checksAgainstPushedSet ? [newTree, oldTree] : [oldTree, newTree]
            for tree in trees.compactMap({ $0 }) {
                let folder = try repository.entry(at: StoreLayout.schemaFolder, inTree: tree)?.id
                if let folder, let known = schemaSets.sets[folder] { return known }
                for file in try repository.files(under: StoreLayout.schemaFolder, inTree: tree)
                where SchemaSetFiles.isSetFile(FileSystem.lastComponent(of: file.path)) {
                    guard let entry = file.entries[0] else { continue }
                    files[FileSystem.lastComponent(of: file.path)] = try repository.blobContent(entry.id)
                }
                if !files.isEmpty {
                    let set = try readSet(files)
                    if let folder { schemaSets.sets[folder] = set }
                    return set
                }
            }
        }
        guard !files.isEmpty else { return nil }
        return try readSet(files)
    }

    private func readSet(_ files: [String: [UInt8]]) throws(CairnError) -> SchemaSet {
        do {
            return try SchemaSet(files: files)
        } catch {
            throw CairnError(.corrupt, "the schema set the push is checked against is broken: \(error.description)", cause: error)
        }
    }
}
