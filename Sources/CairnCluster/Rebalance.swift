import CairnCore
import CairnSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `cairn server rebalance --add NAME`: a shard joins and takes its share of the buckets, and
/// of the users in them, from the shards that hold the most (``BucketMap/adding(_:)``).
///
/// In this order, so that no push is ever accepted on a shard after its copy was taken, and
/// no user ends with a repository on two shards:
/// 1. every shard is told the buckets it owns now: the old ones stop making repositories for
///    new users of the buckets that move (they get 503, retry);
/// 2. the users already in those buckets are pinned to their shard in HAProxy's map of users,
///    and then the buckets switch to the new shard in the map of buckets: new users go there;
/// 3. each pinned user moves: pushes held and the repository bundled on the old shard (a
///    device's push gets 503 and retries), made and audited on the new one, the pin removed,
///    the old copy retired. A user whose move fails has their pushes let in again and stays
///    pinned where they were; the run ends with status 1, naming them.
/// The map files on disk are written as HAProxy's maps change, so a reload keeps them. Run
/// again with the same shard, it moves the users an earlier run left pinned.
public struct Rebalance: Sendable {
    public let haproxy: HAProxyRuntime
    public let bucketsMap: String
    public let usersMap: String
    /// Every shard's name (HAProxy's backend) and its administration URL.
    public let shards: [String: String]
    public let secret: String

    public init(haproxy: HAProxyRuntime, bucketsMap: String, usersMap: String, shards: [String: String], secret: String) {
        self.haproxy = haproxy
        self.bucketsMap = bucketsMap
        self.usersMap = usersMap
        self.shards = shards
        self.secret = secret
    }

    public struct Summary: Sendable {
        public var buckets = 0
        public var moved: [String] = []
        public var failed: [(uid: String, reason: String)] = []
        public var seconds = 0.0
    }

    func client(_ shard: String) throws(BackupError) -> ShardAdminClient {
        guard let url = shards[shard] else {
            throw BackupError("the map of buckets names shard \(shard), which --shard does not give an address for")
        }
        return ShardAdminClient(name: shard, url: url, secret: secret)
    }

    public func add(_ newShard: String, progress: @Sendable (String) -> Void = { _ in }) async throws(BackupError) -> Summary {
        let started = Syscalls.monotonicSeconds()
        let current = try readBucketMap()
        let target = try client(newShard)
        // A shard that holds buckets already joined in an earlier run: only the users that
        // run left pinned elsewhere move now.
        let (plan, moves) = current.shardNames.contains(newShard) ? (current, []) : current.adding(newShard)
        var summary = Summary()
        summary.buckets = moves.count
        let moving = Set(moves.map(\.bucket))

        // 1. Who owns which buckets for new users, the new shard first.
        try target.setBuckets(plan.buckets(of: newShard))
        for shard in current.shardNames { try client(shard).setBuckets(plan.buckets(of: shard)) }
        // 2. The users already in the moving buckets stay where they are for now…
        var pinned = try readUsersMap()
        var toMove = pinned.filter { plan[UserBucket.of($0.key)] == newShard && $0.value != newShard }
            .map { (uid: $0.key, from: $0.value) }.sorted { $0.uid < $1.uid }
        for shard in Set(moves.map(\.from)).sorted() {
            for user in try client(shard).users() where moving.contains(user.bucket) {
                toMove.append((user.uid, shard))
                try await haproxy.setMap(usersMap, user.uid, shard)
                pinned[user.uid] = shard
            }
        }
        try writeUsersMap(pinned)
        // …while the buckets go to the new shard.
        for move in moves { try await haproxy.setMap(bucketsMap, String(move.bucket), newShard) }
        try writeFile(bucketsMap, plan.text)
        progress("\(moves.count) buckets now route to \(newShard); moving \(toMove.count) users")

        // 3. Each user, one at a time: their pushes are held only while their own copy is made.
        for (uid, from) in toMove {
            let source = try client(from)
            do {
                let (bundle, refs) = try source.export(uid)
                try target.importRepository(uid, bundle: bundle, refs: refs)
                try await haproxy.deleteFromMap(usersMap, uid)
                pinned[uid] = nil
                try source.retire(uid, movedTo: newShard)
                summary.moved.append(uid)
            } catch {
                try? source.release(uid)
                summary.failed.append((uid, error.description))
                progress("\(uid) stays on \(from): \(error.description)")
            }
        }
        try writeUsersMap(pinned)
        summary.seconds = Syscalls.monotonicSeconds() - started
        return summary
    }

    func readBucketMap() throws(BackupError) -> BucketMap {
        guard let bytes = try BackupError.local({ () throws(CairnError) in try FileSystem.read(bucketsMap) }) else {
            throw BackupError("cannot read \(bucketsMap), HAProxy's map of buckets; give the file its configuration names")
        }
        switch BucketMap.parse(String(decoding: bytes, as: UTF8.self)) {
        case .success(let map): return map
        case .failure(let error): throw BackupError("\(bucketsMap): \(error)")
        }
    }

    /// The users pinned to a shard: `<uid> <shard>` a line.
    func readUsersMap() throws(BackupError) -> [String: String] {
        let bytes = try BackupError.local { () throws(CairnError) in try FileSystem.read(usersMap) } ?? []
        var pins: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            if parts.count == 2 { pins[String(parts[0])] = String(parts[1]) }
        }
        return pins
    }

    func writeUsersMap(_ pins: [String: String]) throws(BackupError) {
        try writeFile(
            usersMap,
            "# Cairn: users pinned to a shard, whatever their bucket.\n"
                + pins.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)\n" }.joined())
    }

    func writeFile(_ path: String, _ text: String) throws(BackupError) {
        try BackupError.local { () throws(CairnError) in try FileSystem.writeAtomically(Array(text.utf8), to: path, durable: true) }
    }
}
