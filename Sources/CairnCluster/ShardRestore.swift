import CairnCore
import CairnMerge
import CairnServer
import CairnSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `cairn server restore DIR --from TARGET`: every user of the backup's manifest gets their
/// repository back, made as `cairn server init` makes it (with the hooks), from their chain of
/// bundles. Each bundle must be whole — its size and SHA-256 as the manifest says — and the
/// refs the bundles give must be the manifest's; a user for whom either fails is refused by
/// name and left out, the others restored. Each repository is built beside the folder's and
/// renamed into place, so none is ever half there.
public struct ShardRestore: Sendable {
    public let folder: ShardFolder
    public let target: BackupTarget
    let client: ObjectStoreClient
    let cairn: String
    let schemaSet: SchemaSetFiles?

    public init(
        folder: String, target: BackupTarget, environment: [String: String], cairn: String,
        schemaSet: SchemaSetFiles? = nil, rclone: String = "rclone"
    ) {
        self.folder = ShardFolder(folder)
        self.target = target
        client = ObjectStoreClient(target, rclone: rclone, environment: environment)
        self.cairn = cairn
        self.schemaSet = schemaSet
    }

    public struct Summary: Sendable {
        public var restored: [String] = []
        /// Each user left out, and why.
        public var refused: [(uid: String, reason: String)] = []
        public var seconds = 0.0
    }

    /// Restores every user of the backup; with `force`, over repositories the folder holds
    /// (each replaced one kept in `.cairn-shard/replaced/`), else only into a folder with none.
    public func run(force: Bool = false) async throws(BackupError) -> Summary {
        let started = Syscalls.monotonicSeconds()
        let present = folder.users()
        if !present.isEmpty, !force {
            throw BackupError(
                "\(folder.path) already holds \(present.count) repositor\(present.count == 1 ? "y" : "ies"); restore into an empty folder, or give --force to replace the ones the backup holds"
            )
        }
        guard let bytes = try await client.read(BackupManifest.fileName, in: "") else {
            throw BackupError(
                "there is no backup at \(target): no \(BackupManifest.fileName); name the target cairn server backup wrote to")
        }
        let manifest = try BackupManifest.read(bytes, from: target)
        try BackupError.local { () throws(CairnError) in try FileSystem.makeFolders(folder.path) }
        let staging = try BackupError.local { () throws(CairnError) in try FileSystem.makeTemporaryFolder(prefix: "cairn-restore") }
        defer { try? FileManager.default.removeItem(atPath: staging) }
        try await client.download("bundles", to: staging + "/bundles")

        let outcomes = try await ShardBackup.concurrently(manifest.users.keys.sorted(), width: 4) { uid throws(BackupError) -> String? in
            guard let user = manifest.users[uid] else { return "not in the manifest" }
            return try await restore(uid, user, from: staging, force: force)
        }
        // The shard's place: the buckets it owned, the users who had moved away from it.
        try BackupError.local { () throws(CairnError) in
            if let owned = manifest.ownedBuckets, case .success(let buckets) = BucketSet.parse(owned) {
                try folder.setOwnedBuckets(buckets)
            }
            for (uid, shard) in manifest.movedAway ?? [:] where manifest.users[uid] == nil { try folder.markMoved(uid, to: shard) }
        }
        var summary = Summary()
        for uid in manifest.users.keys.sorted() {
            if let reason = outcomes[uid] ?? "not restored" {
                summary.refused.append((uid, reason))
            } else {
                summary.restored.append(uid)
            }
        }
        summary.seconds = Syscalls.monotonicSeconds() - started
        return summary
    }

    /// Restores one user; nil, or why they were refused.
    func restore(_ uid: String, _ user: BackupManifest.UserBackup, from staging: String, force: Bool) async throws(BackupError) -> String? {
        do { try Home.validate(uid: uid) } catch { return "not a user ID Cairn takes: \(error.message)" }
        for bundle in user.bundles {
            guard !bundle.name.contains(".."), bundle.name.hasPrefix("bundles/\(uid)/") else {
                return "the manifest names \(bundle.name), which is not one of the user's bundles"
            }
            let bytes: [UInt8]
            do { bytes = try FileSystem.read(staging + "/" + bundle.name) ?? [] } catch { return error.message }
            if bytes.count != bundle.bytes {
                return "\(bundle.name) is cut short or changed in \(target): \(bytes.count) bytes where the manifest says \(bundle.bytes)"
            }
            if ShardBackup.sha256(bytes) != bundle.sha256 {
                return "\(bundle.name) in \(target) is not the bundle the manifest names (its SHA-256 differs)"
            }
        }
        do {
            _ = try await RepositoryRebuild(folder: folder, cairn: cairn, schemaSet: schemaSet)
                .build(uid, from: user.bundles.map { staging + "/" + $0.name }, expecting: user.refs, replacing: force)
        } catch {
            return error.reason
        }
        return nil
    }
}
