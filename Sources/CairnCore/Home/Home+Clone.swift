import CairnMerge
import Git
import GitFormat

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Home {
    /// Restores a user's store from a remote onto this machine: a new store whose history,
    /// documents and schema set are the remote's, set to sync with it. `uid` defaults to the
    /// remote's name (`…/u1.git` → `u1`) and must be the user the remote's store belongs to.
    ///
    /// Everything fetched is checked before a file is written (see `StoreTree`); on any
    /// failure the new store's folder is removed, as if nothing happened.
    @discardableResult
    public func cloneStore(
        from remote: RemoteURL, uid: String? = nil, options: SyncOptions = SyncOptions(),
        mergeDriver: String? = nil
    ) throws(CairnError) -> Store {
        guard let uid = uid ?? remote.impliedUID else {
            throw CairnError(.invalidInput, "cannot tell whose progress \(remote) holds", remedy: .nameUser)
        }
        try Self.validate(uid: uid)
        let folder = storeFolder(uid)
        if FileSystem.kind(folder) != nil {
            throw CairnError(.alreadyExists, "a store for user \(uid) already exists at \(folder)", remedy: .syncExistingStore(uid: uid))
        }
        try FileSystem.makeFolders(root)
        do {
            let store = try Store.restore(
                uid: uid, folder: folder, from: remote, options: options, mergeDriver: mergeDriver,
                configuration: configuration)
            let active = try activeUser()
            if active == nil || !users().contains(active!) {
                try use(uid)
            }
            return store
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }
}

extension Store {
    /// Makes the store of `uid` at `folder` from what `remote` holds.
    static func restore(
        uid: String, folder: String, from remote: RemoteURL, options: SyncOptions,
        mergeDriver: String?, configuration: Configuration
    ) throws(CairnError) -> Store {
        let repository = try makeRepository(uid: uid, folder: folder, mergeDriver: mergeDriver)
        do {
            try configureRemote(remote, in: repository)
        } catch {
            throw CairnError(.io, "cannot set the remote of the new store: \(error)")
        }
        // A store without its identity file is not a store yet: open it bare of checks.
        try FileSystem.makeFolders(folder + "/" + StoreLayout.ownFolder)
        try FileSystem.writeAtomically(Array("{\"uid\":\"\(uid)\"}".utf8), to: folder + "/" + StoreLayout.identityFile)
        let store = try Store(uid: uid, folder: folder, configuration: configuration)
        try store.locked("cannot restore the store of \(uid) from \(remote)") {
            if !store.copyObjects(fromLocal: remote) {
                try options.presentingCredentials(to: remote, as: uid, configuration: configuration) { credentials throws(CairnError) in
                    do {
                        try options.retryingNetworkFailures(logger: store.logger) {
                            try store.fetch(
                                from: remote, credentials: credentials, timeout: options.networkTimeout, progress: options.progress)
                        }
                    } catch let error as CairnError {
                        throw error
                    } catch {
                        throw Store.remoteFailure(error, remote: remote, credentials: credentials, doing: "restore from")
                    }
                }
            }
            guard let tip = try repository.reference(remoteBranch) else {
                throw CairnError(
                    .notFound, "\(remote) holds no progress yet (no \(branch) branch)",
                    remedy: .createStoreWithRemote(uid: uid, remote: remote))
            }
            _ = try FileSystem.removeFile(folder + "/" + StoreLayout.identityFile)
            try checkCommits(in: repository, from: tip, hiding: [], uid: uid)
            let tree = try repository.commit(tip).treeID
            guard let identity = try repository.entry(at: StoreLayout.identityFile, inTree: tree),
                let fields = try? JSONParser().parse(repository.blobContent(identity.id)),
                case .string(uid)? = fields.field("uid")
            else {
                throw CairnError(
                    .invalidInput,
                    "\(remote) is not the store of user \(uid) (its \(StoreLayout.identityFile) names another user, or none)",
                    remedy: .nameRightUser)
            }
            if fields.field("encrypted") == .bool(true) {
                try store.adoptEncryption(of: tree)
                if let mergeDriver { try store.configureDiffOfSealedDocuments(executable: mergeDriver) }
            }
            try store.checkFetched(tip)
            try store.moveWorkingTree(from: nil, to: tip)
            try store.correctDerivedFieldsOnArrival(at: tip)
        }
        return store
    }
}
