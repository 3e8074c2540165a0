import CairnMerge
import CairnSystem
import Git
import GitFormat
import Logging

/// Moving assets between a device and its remote: uploaded by `sync` before the commits that
/// point to them are pushed, downloaded when a device first reads them, and removed from the
/// device once no document points to them.
extension Store {
    /// Where a remote keeps its assets: a path remote in its own `lfs/objects` folder, an
    /// HTTP remote on the LFS server git-lfs would use.
    enum AssetServer {
        case folder(AssetObjects)
        case lfs(LFSClient)
    }

    /// The asset server of `remote`.
    func assetServer(for remote: RemoteURL, credentials: Credentials?, timeout: Double) throws(CairnError) -> AssetServer {
        switch remote.transport {
        case .path:
            // The folder the repository's own config names (cairn.lfsStorage), else its lfs/objects.
            let bare = try translatingErrors("cannot open \(remote)") { try Repository(openingAt: remote.url) }
            return .folder(AssetSweep.storage(of: bare))
        case .http:
            let configured = (try? repository.config("lfs.url")).flatMap { $0 }
            return .lfs(
                LFSClient(endpoint: LFSClient.endpoint(of: remote, configured: configured), credentials: credentials, timeout: timeout))
        case .ssh, .git:
            throw CairnError(
                .refused,
                "\(remote) is reached over ssh, and Cairn moves assets over https:// or to a path only; use the remote's https:// URL for a store with assets — nothing was pushed"
            )
        }
    }

    /// Uploads what the server lacks of the assets the commit `local` points to, before
    /// `local` is pushed: a commit never reaches the remote before its assets. The server is
    /// asked about every asset this device holds (the batch API), so an upload cut short is
    /// made again, whole, by the next sync, one already there is not sent twice, and an asset
    /// the server lost comes back from any device that holds it.
    ///
    /// With `sending` false, a push tried before fetching, nothing is sent: such a push may
    /// yet be refused, and the merge after it may drop what it would have uploaded. Returns
    /// whether the server holds every asset `local` names (with `sending`, always true).
    @discardableResult
    func uploadAssets(
        of local: ObjectID, beyond remoteTip: ObjectID?, to remote: RemoteURL, credentials: Credentials?,
        options: SyncOptions, sending allowed: Bool = true
    ) throws -> Bool {
        let wanted = try assetPointers(inTree: repository.commit(local).treeID)
        guard !wanted.isEmpty else { return true }
        let present = try remoteTip.map { try AssetSweep.oids(in: repository, tree: repository.commit($0).treeID) } ?? []
        var sending: [String: AssetReference] = [:]
        for (pointer, reference) in wanted.sorted(by: { $0.key < $1.key }) {
            guard assetObjects.contains(reference.oid) else {
                if present.contains(reference.oid) { continue }
                let document = StoreLayout.assetField(ofPointerFile: pointer)
                throw CairnError(
                    .notFound,
                    "the asset \(reference.oid) (\(pointer)) is on no device that synced it, and \(remote) does not have it",
                    remedy: .removeAsset(path: document?.document, field: document?.field))
            }
            sending[reference.oid] = reference
        }
        guard !sending.isEmpty else { return true }
        let objects = sending.values.sorted { $0.oid < $1.oid }
        var sent = 0
        switch try assetServer(for: remote, credentials: credentials, timeout: options.networkTimeout) {
        case .folder(let storage):
            if !allowed { return objects.allSatisfy { storage.contains($0.oid) } }
            for object in objects where !storage.contains(object.oid) {
                try storage.add(copying: assetObjects.path(of: object.oid), expected: object.oid)
                sent += 1
            }
        case .lfs(let client):
            let answers = try options.retryingNetworkFailures(logger: logger) { try client.batch("upload", objects) }
            if !allowed {
                return objects.allSatisfy { object in
                    switch answers[object.oid] {
                    case .present?, nil: true
                    default: false
                    }
                }
            }
            for object in objects {
                switch answers[object.oid] {
                case .transfer(let href, let headers, let verify)?:
                    try options.retryingNetworkFailures(logger: logger) {
                        try client.upload(assetObjects.path(of: object.oid), as: object, to: href, headers: headers, verify: verify)
                    }
                    sent += 1
                case .failed(let code, let message)?:
                    throw CairnError(
                        .refused,
                        "\(client.endpoint) refused the upload of asset \(object.oid) (\(code)\(message.isEmpty ? "" : ": " + message)); nothing was pushed"
                    )
                case .present?, nil:
                    continue
                }
            }
        }
        logger.debug("assets uploaded", metadata: ["assets": "\(sent)", "asked": "\(objects.count)"])
        return true
    }

    /// Downloads the asset `reference` from the remote into this device's objects, its hash
    /// checked. The caller holds the lock.
    func downloadAsset(_ reference: AssetReference, describedAs what: String) throws(CairnError) {
        guard let remote = try remote() else {
            throw CairnError(
                .notFound, "\(what) is not on this device, and the store has no remote to download it from", remedy: .setRemote)
        }
        let missing =
            "\(remote) does not have \(what) (\(reference.oid)): the device that added it has not synced it yet, or it was deleted"
        let credentials = remote.credentials(fallingBackOn: configuration)
        try translatingErrors("cannot download \(what)") {
            switch try assetServer(for: remote, credentials: credentials, timeout: SyncOptions.standardNetworkTimeout) {
            case .folder(let storage):
                guard let source = storage.existingPath(of: reference.oid) else { throw CairnError(.notFound, missing) }
                try assetObjects.add(copying: source, expected: reference.oid)
            case .lfs(let client):
                let answers = try client.batch("download", [reference])
                switch answers[reference.oid] {
                case .transfer(let href, let headers, _)?:
                    try FileSystem.makeFolders(assetObjects.folder)
                    let temporary = assetObjects.folder + "/\(StoreLayout.temporaryFilePrefix)download-\(Syscalls.processID)"
                    defer { _ = Syscalls.unlink(temporary) }
                    try client.download(reference, from: href, headers: headers, to: temporary)
                    try assetObjects.add(copying: temporary, expected: reference.oid)
                case .failed(404, _)?, .present?, nil:
                    throw CairnError(.notFound, missing)
                case .failed(let code, let message)?:
                    throw CairnError(
                        .refused, "\(client.endpoint) refused the download of \(what) (\(code)\(message.isEmpty ? "" : ": " + message))")
                }
            }
        }
        logger.debug("asset downloaded", metadata: ["oid": "\(reference.oid)", "bytes": "\(reference.size)"])
    }

    /// Copies from the store `other` (on this device) the assets `tree` points to that this
    /// store lacks: an import brings a user's recordings with their sessions.
    func copyAssets(pointedToBy tree: ObjectID, from other: Store) throws {
        for reference in try assetPointers(inTree: tree).values where !assetObjects.contains(reference.oid) {
            if let source = other.assetObjects.existingPath(of: reference.oid) {
                try assetObjects.add(copying: source, expected: reference.oid)
            }
        }
    }

    /// Copies into this store the assets of the damaged store at `folder` that it lacks; an
    /// object that cannot be read, or whose bytes do not match its hash, is left behind.
    func keepAssets(of folder: String) {
        let damaged = AssetObjects(folder: folder + "/.git/lfs/objects")
        for oid in damaged.oids().sorted() where !assetObjects.contains(oid) {
            if let source = damaged.existingPath(of: oid) {
                _ = try? assetObjects.add(copying: source, expected: oid)
            }
        }
    }

    /// Removes from this device the assets no document points to any more (in the last
    /// checkpoint or the working tree), after a sync. The caller holds the lock.
    @discardableResult
    func sweepLocalAssets() throws -> [String] {
        let local = assetObjects.oids()
        guard !local.isEmpty else { return [] }
        let kept = try referencedAssets()
        var removed: [String] = []
        for oid in local.subtracting(kept).sorted() where try assetObjects.remove(oid) {
            removed.append(oid)
        }
        if !removed.isEmpty { logger.debug("assets removed", metadata: ["assets": "\(removed.count)"]) }
        return removed
    }
}
