import CairnMerge

/// How much downloaded content a device keeps (seed 001 §8.1): the total size on disk, the
/// number of items, the size of one item, and how long a download stays fresh.
public struct ContentLimits: Sendable, Hashable {
    /// The most the cache's items may take on disk together, in bytes.
    public var budgetBytes: Int64
    /// The most items the cache holds.
    public var maxItems: Int
    /// The most one item may take on disk, in bytes.
    public var maxItemBytes: Int64
    /// How long, in seconds, a download stays fresh; after that it is expired, evicted first.
    public var expirySeconds: Int64

    public init(
        budgetBytes: Int64 = 500_000_000, maxItems: Int = 50, maxItemBytes: Int64 = 10_000_000,
        expirySeconds: Int64 = 7 * 86_400
    ) {
        self.budgetBytes = budgetBytes
        self.maxItems = maxItems
        self.maxItemBytes = maxItemBytes
        self.expirySeconds = expirySeconds
    }

    /// The seed's: 500 MB, 50 items, 10 MB an item, 7 days.
    public static let standard = ContentLimits()

    /// As the cache's record keeps them.
    var jsonValue: JSONValue {
        .object([
            "budgetBytes": .integer(budgetBytes), "maxItems": .integer(Int64(maxItems)),
            "maxItemBytes": .integer(maxItemBytes), "expirySeconds": .integer(expirySeconds),
        ])
    }

    /// Read from the record; a missing field keeps the standard value.
    init(_ value: JSONValue?) {
        self = .standard
        func number(_ name: String) -> Int64? {
            if case .integer(let value)? = value?.field(name), value >= 0 { return value }
            return nil
        }
        if let value = number("budgetBytes") { budgetBytes = value }
        if let value = number("maxItems"), value <= Int64(Int.max) { maxItems = Int(value) }
        if let value = number("maxItemBytes") { maxItemBytes = value }
        if let value = number("expirySeconds") { expirySeconds = value }
    }
}
