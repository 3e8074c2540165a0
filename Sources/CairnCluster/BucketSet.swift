/// A set of buckets, written as ranges: `0-255,512-767`, or `all`. It is what a shard owns for
/// new users (``ShardFolder``) and what HAProxy's map of buckets gives each shard.
public struct BucketSet: Sendable, Hashable {
    /// The buckets, each in `0..<UserBucket.count`.
    public private(set) var buckets: Set<Int>

    public init(_ buckets: some Sequence<Int>) {
        self.buckets = Set(buckets.filter { (0..<UserBucket.count).contains($0) })
    }

    /// Every bucket: a shard alone, or one that was never told otherwise.
    public static let all = BucketSet(0..<UserBucket.count)

    public func contains(_ bucket: Int) -> Bool { buckets.contains(bucket) }

    public var count: Int { buckets.count }

    /// Reads `0-255,512-767`, `7`, `all` or `none`; nil, with what is wrong, for anything else.
    public static func parse(_ text: String) -> Result<BucketSet, BucketSetError> {
        let trimmed = text.trimmingWhitespace()
        if trimmed == "all" { return .success(.all) }
        if trimmed == "none" || trimmed.isEmpty { return .success(BucketSet([])) }
        var buckets = Set<Int>()
        for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            let bounds = part.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...2).contains(bounds.count), let low = Int(bounds[0]), let high = Int(bounds[bounds.count - 1]),
                low <= high, low >= 0, high < UserBucket.count
            else {
                return .failure(BucketSetError(text: String(part)))
            }
            buckets.formUnion(low...high)
        }
        return .success(BucketSet(buckets))
    }

    /// The ranges, shortest text first: `0-255,512-767`; `all` and `none` as such.
    public var description: String {
        if buckets.count == UserBucket.count { return "all" }
        if buckets.isEmpty { return "none" }
        var ranges: [String] = []
        var sorted = buckets.sorted()[...]
        while let low = sorted.popFirst() {
            var high = low
            while sorted.first == high + 1 { high = sorted.removeFirst() }
            ranges.append(low == high ? "\(low)" : "\(low)-\(high)")
        }
        return ranges.joined(separator: ",")
    }
}

/// A part of a bucket set's text that is not a bucket or a range of them.
public struct BucketSetError: Error, Sendable, CustomStringConvertible {
    public let text: String
    public var description: String {
        "\(text) is not a bucket or a range of buckets; write them as 0-255,512-767 (each from 0 to \(UserBucket.count - 1)), all or none"
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var slice = self[...]
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return String(slice)
    }
}
