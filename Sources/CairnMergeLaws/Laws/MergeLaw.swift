import CairnMerge

/// A law every merge policy keeps (the Design article, *Policies*).
public enum MergeLaw: String, Hashable, Sendable, CaseIterable {
    /// `merge(b, x, y)` and `merge(b, y, x)` give the same bytes and the same records.
    case symmetry
    /// `merge(b, b, x) == x` and `merge(b, x, b) == x`, with no record.
    case identity
    /// `merge(b, x, x) == x`, with no record.
    case idempotence
}
