import CairnMerge
import CairnSystem
import Git
import GitFormat

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Home {
    /// Restores a damaged store from its remote, keeping what it held that the remote lacks.
    ///
    /// The remote's copy is cloned beside the store; then every document of the damaged
    /// store's working tree (which holds its unpushed checkpoints and its pending writes,
    /// and is read as plain files, never through its damaged objects) that differs from the
    /// remote's is merged into the clone under the store's policies, with the remote's
    /// version at the last sync as the common base when the clone has that commit (else as
    /// if both sides had created the document). The kept documents are checkpointed, the
    /// damaged store is moved to `.damaged/<uid>-<time>` in the home (never deleted), and the
    /// repaired one takes its place; the next sync pushes what was kept.
    ///
    /// Not kept: documents deleted since the last sync (a deletion leaves no file to find),
    /// and files that are not valid documents of the user (listed in the result).
    public func repairStore(
        _ uid: String? = nil, from explicitRemote: RemoteURL? = nil,
        options: SyncOptions = SyncOptions(), mergeDriver: String? = nil
    ) throws(CairnError) -> RepairResult {
        let chosen: String? = if let uid { uid } else { try activeUser() }
        guard let uid = chosen else {
            throw CairnError(.notFound, "no user is active", remedy: .nameStoreToRepair)
        }
        try Self.validate(uid: uid)
        let folder = storeFolder(uid)
        guard FileSystem.kind(folder + "/" + StoreLayout.identityFile) == .file else {
            throw CairnError(.notFound, "there is no store for user \(uid) at \(folder)", remedy: .cloneFromRemote)
        }
        // What can still be read of the damaged store: its configuration and its references.
        let damaged = try? Store(uid: uid, folder: folder, configuration: configuration, checkingPacks: false)
        let stored = (try? damaged?.remote()) ?? nil
        guard let remote = explicitRemote ?? stored else {
            throw CairnError(.invalidInput, "the store of \(uid) has no remote to repair it from", remedy: .nameRepairRemote)
        }
        let lastSynced = (try? damaged?.repository.reference(Store.remoteBranch)) ?? nil

        let work = root + "/.repair-\(uid)-\(Syscalls.processID)"
        if FileSystem.kind(work) != nil { try? FileManager.default.removeItem(atPath: work) }
        do {
            let repaired = try Store.restore(
                uid: uid, folder: work, from: remote, options: options, mergeDriver: mergeDriver,
                configuration: configuration)
            // The damaged store's assets come first, so the documents kept can point to them
            // (as far as they can be read: each is checked against its hash; the next sync
            // removes those no document points to).
            repaired.keepAssets(of: folder)
            // Nothing may write to the damaged store while its documents are read.
            var result =
                try damaged?.lock.withLock {
                    try repaired.keep(documentsOf: folder, lastSynced: lastSynced)
                } ?? repaired.keep(documentsOf: folder, lastSynced: lastSynced)
            result.remote = remote
            if !result.kept.isEmpty {
                let plural = result.kept.count == 1 ? "" : "s"
                result.checkpoint = try repaired.checkpoint(
                    message: "Repair: \(result.kept.count) document\(plural) kept from the damaged store"
                ).id
            }
            // The damaged store is kept whole, out of the way; the repaired one takes its place.
            let aside = root + "/.damaged/\(uid)-\(Self.timestamp())"
            try FileSystem.makeFolders(root + "/.damaged")
            try FileSystem.move(folder, to: aside)
            try FileSystem.move(work, to: folder)
            result.damagedCopy = aside
            return result
        } catch let error as CairnError {
            try? FileManager.default.removeItem(atPath: work)
            throw error
        } catch {
            try? FileManager.default.removeItem(atPath: work)
            throw CairnError(.io, "cannot repair the store of \(uid): \(error)")
        }
    }

    /// The time as `20261122-091500` (UTC), for the folder of a damaged store.
    static func timestamp() -> String {
        let now = Syscalls.calendarNowUTC()
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(now.year)\(two(now.month))\(two(now.day))-\(two(now.hour))\(two(now.minute))\(two(now.second))"
    }
}

extension Store {
    /// Merges into this store every document of the working tree at `damagedFolder` that
    /// differs from this store's (see ``Home/repairStore(_:from:options:mergeDriver:)``).
    func keep(documentsOf damagedFolder: String, lastSynced: ObjectID?) throws -> RepairResult {
        var result = RepairResult()
        let set = try schemaSet()
        let base = lastSynced.flatMap { try? repository.commit($0) }
        for file in Self.documentFiles(in: damagedFolder, uid: uid) {
            guard let path = DocumentPath(fileName: file) else { continue }
            let ours: JSONValue
            do {
                guard let bytes = try FileSystem.read(damagedFolder + "/" + file) else { continue }
                ours = try parseStored(bytes, file: file)
            } catch {
                result.skipped.append(file)
                continue
            }
            let theirs = try document(at: path)
            if let theirs, JSONValue.same(theirs, ours) { continue }
            var common: JSONValue?
            if let base, let blob = try repository.blobID(at: file, inCommit: base.id) {
                common = try parseStored(repository.blobContent(blob), file: file)
            }
            // Unchanged here since the last sync: the remote's version is the newer one.
            if let common, JSONValue.same(common, ours) { continue }
            let outcome = set.merge(path, base: common, ours: ours, theirs: theirs)
            guard let merged = outcome.value else { continue }
            do {
                try put(merged, at: path)
            } catch {
                guard error.code == .invalidInput else { throw error }
                result.skipped.append(file)
                continue
            }
            result.kept.append(path)
            if theirs != nil { result.merged += 1 }
            result.conflicts += outcome.conflicts
        }
        return result
    }

    /// The document files of `uid` under `folder` (`users/<uid>.json`, `users/<uid>/…`),
    /// relative to it, sorted; read from the file system only.
    static func documentFiles(in folder: String, uid: String) -> [String] {
        var found: [String] = []
        func walk(_ relative: String) {
            for name in FileSystem.names(in: folder + "/" + relative) {
                let child = relative + "/" + name
                switch FileSystem.kind(folder + "/" + child) {
                case .file where name.hasSuffix(".json"): found.append(child)
                case .folder: walk(child)
                default: break
                }
            }
        }
        let userFile = StoreLayout.userFile(of: uid)
        if FileSystem.kind(folder + "/" + userFile) == .file { found.append(userFile) }
        walk(StoreLayout.documentsFolder(of: uid))
        return found.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
