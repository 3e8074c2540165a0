#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a shard's backup holds (`manifest.json` at the target's top): for each user, the refs
/// of their repository when it was last backed up, and the chain of git bundles that rebuilds
/// it — the first one whole, each later one only what came since the one before. Written after
/// the bundles it names, so it never names one that is not there.
public struct BackupManifest: Codable, Sendable, Equatable {
    public var format = 1
    /// When the last backup run wrote it (ISO 8601).
    public var taken: String
    public var users: [String: UserBackup]
    /// The shard's place in the deployment when the backup was taken: the buckets it owned
    /// (``BucketSet``'s text) and the users who had moved away from it, with their new shard.
    public var ownedBuckets: String?
    public var movedAway: [String: String]?

    public struct UserBackup: Codable, Sendable, Equatable {
        /// Each ref (`refs/heads/main`) and the commit it named.
        public var refs: [String: String]
        public var bundles: [Bundle]
    }

    public struct Bundle: Codable, Sendable, Equatable {
        /// Its path under the target (`bundles/<uid>/000001.bundle`).
        public var name: String
        public var sha256: String
        public var bytes: Int
    }

    public static let fileName = "manifest.json"

    static func read(_ bytes: [UInt8], from target: BackupTarget) throws(BackupError) -> BackupManifest {
        do {
            let manifest = try JSONDecoder().decode(BackupManifest.self, from: Data(bytes))
            guard manifest.format == 1 else {
                throw BackupError("\(target)/\(fileName) has format \(manifest.format), which this Cairn does not read; use a newer Cairn")
            }
            return manifest
        } catch let error as BackupError {
            throw error
        } catch {
            throw BackupError(
                "\(target)/\(fileName) is not a backup manifest Cairn wrote (\(error)); name the target a backup was written to")
        }
    }

    func bytes() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        return Array((try? encoder.encode(self)) ?? Data())
    }
}
