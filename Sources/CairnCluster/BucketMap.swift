/// Which shard serves each bucket: the map HAProxy routes by (`buckets.map`, a line
/// `<bucket> <shard>` for each of the 1,024 buckets, a shard being a backend's name).
public struct BucketMap: Sendable, Hashable {
    /// The shard of each bucket, by bucket number.
    public private(set) var shards: [String]

    /// The buckets spread evenly over `shards`, in ranges, in the order given.
    public init(evenlyOver shards: [String]) {
        precondition(!shards.isEmpty)
        self.shards = (0..<UserBucket.count).map { shards[$0 * shards.count / UserBucket.count] }
    }

    init(shards: [String]) {
        self.shards = shards
    }

    /// The shard of `bucket`.
    public subscript(bucket: Int) -> String { shards[bucket] }

    /// The shards named, in the order their first bucket comes.
    public var shardNames: [String] {
        var seen = Set<String>()
        return shards.filter { seen.insert($0).inserted }
    }

    /// The buckets of `shard`.
    public func buckets(of shard: String) -> BucketSet {
        BucketSet(shards.indices.filter { shards[$0] == shard })
    }

    /// The map once `newShard` joins: it takes its share (`count / (shards + 1)` buckets),
    /// each taken from whichever shard holds the most at that moment (its highest bucket), so
    /// the others end within one bucket of each other and no bucket moves between two of
    /// them. The buckets that move, by the shard they leave.
    public func adding(_ newShard: String) -> (map: BucketMap, moves: [(bucket: Int, from: String)]) {
        var shards = self.shards
        var held = Dictionary(grouping: shards.indices, by: { shards[$0] })
        let share = UserBucket.count / (held.count + 1)
        var moves: [(bucket: Int, from: String)] = []
        for _ in 0..<share {
            guard
                let (largest, buckets) = held.filter({ $0.key != newShard })
                    .max(by: { ($0.value.count, $1.key) < ($1.value.count, $0.key) }),
                let bucket = buckets.max()
            else { break }
            held[largest] = buckets.filter { $0 != bucket }
            shards[bucket] = newShard
            moves.append((bucket, largest))
        }
        return (BucketMap(shards: shards), moves.sorted { $0.bucket < $1.bucket })
    }

    /// The map file's text: a comment, then `<bucket> <shard>` a line.
    public var text: String {
        "# Cairn: the shard of each user bucket (crc32 of the uid, mod \(UserBucket.count)).\n"
            + shards.enumerated().map { "\($0.offset) \($0.element)\n" }.joined()
    }

    /// Reads a map file: every bucket exactly once, `#` comments and blank lines skipped.
    public static func parse(_ text: String) -> Result<BucketMap, BucketMapError> {
        var shards = [String?](repeating: nil, count: UserBucket.count)
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = String(line).trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard fields.count == 2, let bucket = Int(fields[0]), (0..<UserBucket.count).contains(bucket) else {
                return .failure(
                    BucketMapError(
                        message: "line \(index + 1) is not `<bucket> <shard>` with a bucket from 0 to \(UserBucket.count - 1): \(trimmed)"))
            }
            guard shards[bucket] == nil else {
                return .failure(BucketMapError(message: "bucket \(bucket) is named twice (line \(index + 1))"))
            }
            shards[bucket] = String(fields[1])
        }
        if let missing = shards.firstIndex(where: { $0 == nil }) {
            return .failure(
                BucketMapError(message: "bucket \(missing) has no shard; every bucket from 0 to \(UserBucket.count - 1) needs a line"))
        }
        return .success(BucketMap(shards: shards.map { $0! }))
    }
}

/// Why a map of buckets cannot be read.
public struct BucketMapError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
