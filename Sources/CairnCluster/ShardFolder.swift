import CairnCore
import CairnSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A shard's folder of users' repositories (`<uid>.git`), and what the shard keeps of its
/// place in the deployment, in `.cairn-shard/` beside them:
/// - `buckets`: the buckets whose new users it may make repositories for (``BucketSet``;
///   missing: all of them, as a server alone owns every bucket);
/// - `moved/<uid>`: a user whose repository has moved to another shard, naming it; this shard
///   neither serves nor makes that user's repository again, and answers "retry" while the
///   router catches up;
/// - `retired/`: the repositories of users who moved, kept until the operator removes them.
public struct ShardFolder: Sendable {
    public let path: String

    public init(_ path: String) {
        self.path = path
    }

    var state: String { path + "/.cairn-shard" }

    /// The repository folder of `uid`.
    public func repository(_ uid: String) -> String { path + "/\(uid).git" }

    /// The users whose repositories are here, sorted.
    public func users() -> [String] {
        FileSystem.entries(in: path).compactMap { entry in
            guard entry.kind == .folder, entry.name.hasSuffix(".git"), !entry.name.hasPrefix(".") else { return nil }
            return String(entry.name.dropLast(4))
        }.sorted()
    }

    /// The buckets whose new users this shard makes repositories for.
    public func ownedBuckets() throws(CairnError) -> BucketSet {
        guard let bytes = try FileSystem.read(state + "/buckets") else { return .all }
        switch BucketSet.parse(String(decoding: bytes, as: UTF8.self)) {
        case .success(let set): return set
        case .failure(let error): throw CairnError(.corrupt, "\(state)/buckets: \(error)")
        }
    }

    /// Sets the buckets whose new users this shard makes repositories for.
    public func setOwnedBuckets(_ buckets: BucketSet) throws(CairnError) {
        try FileSystem.makeFolders(state)
        try FileSystem.writeAtomically(Array((buckets.description + "\n").utf8), to: state + "/buckets", durable: true)
    }

    /// The shard `uid` moved to, or nil when they did not move away from here.
    public func movedTo(_ uid: String) -> String? {
        guard let bytes = try? FileSystem.read(state + "/moved/\(uid)") else { return nil }
        return String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
    }

    /// Every user who moved away from this shard, and the shard they moved to.
    public func movedAway() -> [String: String] {
        var moved: [String: String] = [:]
        for name in FileSystem.names(in: state + "/moved") {
            if let shard = movedTo(name) { moved[name] = shard }
        }
        return moved
    }

    /// Marks `uid` as moved to `shard` (a restore puts the shard's record back).
    public func markMoved(_ uid: String, to shard: String) throws(CairnError) {
        try FileSystem.makeFolders(state + "/moved")
        try FileSystem.writeAtomically(Array((shard + "\n").utf8), to: state + "/moved/\(uid)", durable: true)
    }

    /// Whether this shard may make the repository of `uid`, who has none here.
    public enum Admission: Sendable, Equatable {
        case allowed
        /// The user's bucket belongs to another shard now (a rebalance is under way).
        case notOwned(bucket: Int)
        /// The user's repository moved to that shard.
        case moved(to: String)
    }

    public func admission(of uid: String) throws(CairnError) -> Admission {
        if let shard = movedTo(uid) { return .moved(to: shard) }
        let bucket = UserBucket.of(uid)
        return try ownedBuckets().contains(bucket) ? .allowed : .notOwned(bucket: bucket)
    }

    /// Puts the repository of `uid` aside once its copy serves on `shard`: renamed into
    /// `retired/`, with the marker that keeps this shard from serving or remaking it.
    public func retire(_ uid: String, movedTo shard: String) throws(CairnError) {
        try markMoved(uid, to: shard)
        try FileSystem.makeFolders(state + "/retired")
        guard FileSystem.kind(repository(uid)) == .folder else { return }
        var target = state + "/retired/\(uid).git"
        var suffix = 1
        while FileSystem.kind(target) != nil {
            suffix += 1
            target = state + "/retired/\(uid).git.\(suffix)"
        }
        try FileSystem.move(repository(uid), to: target)
    }

    /// Forgets that `uid` moved away: their repository is coming back here.
    public func welcomeBack(_ uid: String) throws(CairnError) {
        _ = try FileSystem.removeFile(state + "/moved/\(uid)")
    }
}
