import CairnMerge
import CairnSystem
import Git
import GitFormat

extension Store {
    /// `value` as it will be written at `path`: for a kind that pins content, with the version
    /// field set when the document names the item and gives no version of its own — to the
    /// version the document at `path` already has for that item (a document written again keeps
    /// the version it answered, whatever was downloaded since), else to the commit of the item
    /// this device holds (the downloaded repository's `main`); otherwise as it is. Never
    /// touches the network.
    func pinned(_ value: JSONValue, at path: DocumentPath) throws(CairnError) -> JSONValue {
        guard let pin = try schemaSet().kind(of: path)?.pin, case .object(var fields) = value,
            fields[pin.versionField] == nil, let item = pin.item(of: value)
        else { return value }
        if let bytes = try FileSystem.read(absolute(path.fileName)), let old = try? parseStored(bytes, file: path.fileName),
            pin.item(of: old) == item, case .string(let version)? = old.objectValue?[pin.versionField]
        {
            fields[pin.versionField] = .string(version)
        } else if let version = heldContentVersion(collection: pin.collection, item: item) {
            fields[pin.versionField] = .string(version.hex)
        } else {
            return value
        }
        return .object(fields)
    }

    /// The home this store sits in (a store of a home is `<home>/<uid>`).
    var home: Home { Home(root: Home.containing(storeFolder: folder)) }

    /// The commit of `main` of the downloaded item; nil when it is not downloaded (or its name
    /// is no ID, so no repository can hold it).
    func heldContentVersion(collection: String, item: String) -> ObjectID? {
        guard (try? DocumentID.validate(item, in: item)) != nil else { return nil }
        let path = home.contentRepository(collection: collection, item: item)
        guard FileSystem.kind(path) == .folder, let repository = try? Repository(openingAt: path) else { return nil }
        return (try? repository.reference("refs/heads/" + Self.branch)) ?? nil
    }

    /// The number of `version` (commits on the item's history up to it) in the downloaded
    /// item; nil when the item is not downloaded or does not hold that commit.
    func contentVersionNumber(collection: String, item: String, version: String) -> Int? {
        guard (try? DocumentID.validate(item, in: item)) != nil, let id = ObjectID(hex: version) else { return nil }
        let path = home.contentRepository(collection: collection, item: item)
        guard FileSystem.kind(path) == .folder, let repository = try? Repository(openingAt: path),
            (try? repository.commit(id)) != nil
        else { return nil }
        var count = 0
        guard
            (try? repository.walkHistory(
                from: id,
                { _ in
                    count += 1
                    return true
                })) != nil
        else { return nil }
        return count
    }

    /// Every pinned document of the working tree that the remote does not have as it is here
    /// (it differs from `refs/remotes/origin/main`'s tree, or the store never synced): what the
    /// next sync would push, with the item and version each answers. Documents written since
    /// the last checkpoint count. Sorted by path.
    public func unsyncedPins() throws(CairnError) -> [PinnedDocument] {
        try translatingErrors("cannot list the pinned documents") { () throws -> [PinnedDocument] in
            let set = try schemaSet()
            guard set.kinds.contains(where: { $0.pin != nil }) else { return [] }
            let remoteTree = try repository.reference(Self.remoteBranch).map { try repository.commit($0).treeID }
            let headTree = try repository.headCommit()?.treeID
            // What differs is in the commits since the last sync, or written since the last checkpoint.
            var paths = Set(try repository.differences(among: [remoteTree, headTree]).map(\.path))
            paths.formUnion(try pendingFiles())
            var found: [PinnedDocument] = []
            for file in paths.sorted() {
                guard let path = DocumentPath(fileName: file), let pin = set.kind(of: path)?.pin,
                    let bytes = try FileSystem.read(absolute(file))
                else { continue }
                if let remoteTree, let entry = try repository.entry(at: file, inTree: remoteTree),
                    try repository.blobContent(entry.id) == bytes
                {
                    continue
                }
                guard let document = try? parseStored(bytes, file: file), let item = pin.item(of: document) else { continue }
                found.append(PinnedDocument(path: path, collection: pin.collection, item: item, version: pin.version(of: document)))
            }
            return found
        }
    }

    /// The pinned documents (with a version) that pushing `local` over `remote` would send,
    /// read from the commits' trees, grouped by (collection, item, version).
    func pinnedDocuments(from remote: ObjectID?, to local: ObjectID) throws -> [PinnedDocument] {
        let set = try schemaSet()
        guard set.kinds.contains(where: { $0.pin != nil }) else { return [] }
        let remoteTree = try remote.map { try repository.commit($0).treeID }
        let localTree = try repository.commit(local).treeID
        var found: [PinnedDocument] = []
        for difference in try repository.differences(among: [remoteTree, localTree]) {
            guard let entry = difference.entries[1], let path = DocumentPath(fileName: difference.path),
                let pin = set.kind(of: path)?.pin,
                let document = try? parseStored(repository.blobContent(entry.id), file: difference.path),
                let item = pin.item(of: document), let version = pin.version(of: document)
            else { continue }
            found.append(PinnedDocument(path: path, collection: pin.collection, item: item, version: version))
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The versions the last sync held back, as it recorded them.
    func heldPins() throws(CairnError) -> [PinCheck] {
        guard let bytes = try FileSystem.read(repository.gitdir + StoreLayout.heldPinsFile),
            case .array(let entries)? = try? JSONParser().parse(bytes)
        else { return [] }
        return entries.compactMap { entry in
            guard case .string(let collection)? = entry.field("collection"), case .string(let item)? = entry.field("item"),
                case .string(let version)? = entry.field("version"),
                case .string(let state)? = entry.field("state"), let state = PinCheck.State(rawValue: state)
            else { return nil }
            var server: String?
            if case .string(let value)? = entry.field("server") { server = value }
            return PinCheck(collection: collection, item: item, pinnedVersion: version, state: state, serverVersion: server, documents: [])
        }
    }

    /// Records the held versions of `checks` for the decisions (nothing held: no file).
    func recordHeldPins(_ checks: [PinCheck]) throws(CairnError) {
        let path = repository.gitdir + StoreLayout.heldPinsFile
        let held = checks.filter(\.held)
        if held.isEmpty {
            _ = try FileSystem.removeFile(path)
            return
        }
        let entries = JSONValue.array(
            held.map { check in
                .object([
                    "collection": .string(check.collection), "item": .string(check.item), "version": .string(check.pinnedVersion),
                    "state": .string(check.state.rawValue), "server": check.serverVersion.map(JSONValue.string) ?? .null,
                ])
            })
        try FileSystem.writeAtomically(entries.canonicalBytes(), to: path)
    }
}
