import CairnCore
import CairnSystem
import Crypto

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `cairn server backup DIR --to TARGET`: each user's repository that changed since their last
/// backup becomes a git bundle of what changed (their first, of everything), uploaded with the
/// others in one copy; then the manifest (``BackupManifest``) that names them. A run with
/// nothing new reads the manifest, reads each repository's refs, and writes nothing.
public struct ShardBackup: Sendable {
    public let folder: ShardFolder
    public let target: BackupTarget
    let client: ObjectStoreClient

    public init(folder: String, target: BackupTarget, environment: [String: String], rclone: String = "rclone") {
        self.folder = ShardFolder(folder)
        self.target = target
        client = ObjectStoreClient(target, rclone: rclone, environment: environment)
    }

    /// What a run did.
    public struct Summary: Sendable {
        public var users = 0
        /// Users with a new bundle, and its bytes.
        public var backedUp = 0
        public var bytes = 0
        /// Users with no commit yet (nothing to back up).
        public var empty = 0
        public var seconds = 0.0
    }

    public func run() async throws(BackupError) -> Summary {
        let started = Syscalls.monotonicSeconds()
        guard FileSystem.kind(folder.path) == .folder else {
            throw BackupError("\(folder.path) is not a folder of repositories; name the folder cairn server run serves")
        }
        var manifest = BackupManifest(taken: "", users: [:])
        if let bytes = try await client.read(BackupManifest.fileName, in: "") {
            manifest = try BackupManifest.read(bytes, from: target)
        }
        var summary = Summary()
        let users = folder.users()
        summary.users = users.count
        // Users who moved to another shard are backed up there, not here.
        for uid in manifest.users.keys where folder.movedTo(uid) != nil { manifest.users[uid] = nil }

        let refs = try await Self.concurrently(users, width: 8) { uid throws(BackupError) in
            try await GitBundles.refs(of: folder.repository(uid))
        }
        let changed = users.filter { uid in !(refs[uid] ?? [:]).isEmpty && refs[uid] != manifest.users[uid]?.refs }
        let owned = try BackupError.local { () throws(CairnError) in try folder.ownedBuckets().description }
        let movedAway = folder.movedAway()
        let placeChanged = manifest.ownedBuckets != owned || (manifest.movedAway ?? [:]) != movedAway
        manifest.ownedBuckets = owned
        manifest.movedAway = movedAway
        summary.empty = users.filter { (refs[$0] ?? [:]).isEmpty }.count
        if !changed.isEmpty || placeChanged {
            let staging = try BackupError.local { () throws(CairnError) in try FileSystem.makeTemporaryFolder(prefix: "cairn-backup") }
            defer { try? FileManager.default.removeItem(atPath: staging) }
            let before = manifest.users
            let made = try await Self.concurrently(changed, width: 4) { uid throws(BackupError) -> (BackupManifest.Bundle, Bool) in
                let previous = before[uid]
                let sequence = (previous?.bundles.count ?? 0) + 1
                let name = "bundles/\(uid)/" + String(sequence).leftPadded(to: 6) + ".bundle"
                let file = staging + "/" + name
                try BackupError.local { () throws(CairnError) in try FileSystem.makeFolders(FileSystem.parent(of: file)) }
                // A whole bundle starts a new chain; the names go on counting, so the old
                // chain's bundles are never overwritten while the manifest still names them.
                let incremental = try await GitBundles.create(
                    folder.repository(uid), to: file, since: previous.map { Array(Set($0.refs.values)).sorted() } ?? [])
                let bytes: [UInt8]
                bytes = try BackupError.local { () throws(CairnError) in try FileSystem.read(file) ?? [] }
                return (BackupManifest.Bundle(name: name, sha256: Self.sha256(bytes), bytes: bytes.count), incremental)
            }
            if !changed.isEmpty { try await client.upload(folder: staging + "/bundles", to: "bundles") }
            for uid in changed {
                guard let (bundle, continues) = made[uid], let userRefs = refs[uid] else { continue }
                let earlier = continues ? (manifest.users[uid]?.bundles ?? []) : []
                manifest.users[uid] = .init(refs: userRefs, bundles: earlier + [bundle])
                summary.backedUp += 1
                summary.bytes += bundle.bytes
            }
            manifest.taken = Date().formatted(.iso8601)
            let file = staging + "/" + BackupManifest.fileName
            try BackupError.local { () throws(CairnError) in try FileSystem.writeAtomically(manifest.bytes(), to: file) }
            try await client.upload(file: file, to: BackupManifest.fileName)
        }
        summary.seconds = Syscalls.monotonicSeconds() - started
        return summary
    }

    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// `body` for each of `items`, at most `width` at once; the results by item. The first
    /// failure stops the rest.
    static func concurrently<T: Sendable>(
        _ items: [String], width: Int,
        _ body: @escaping @Sendable (String) async throws(BackupError) -> T
    ) async throws(BackupError) -> [String: T] {
        do {
            return try await withThrowingTaskGroup(of: (String, T).self) { group in
                var results: [String: T] = [:]
                var next = items.makeIterator()
                for _ in 0..<min(width, items.count) {
                    if let item = next.next() { group.addTask { (item, try await body(item)) } }
                }
                while let (item, value) = try await group.next() {
                    results[item] = value
                    if let item = next.next() { group.addTask { (item, try await body(item)) } }
                }
                return results
            }
        } catch let error as BackupError {
            throw error
        } catch {
            throw BackupError("\(error)")
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
