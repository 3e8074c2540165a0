/// How a value merges when two sides changed it from a common base (the Design article, *Policies*).
///
/// Policies nest: an object merged by `fields(_:)` or by a side-picking policy
/// (`lww(_:children:)`, ``highest(_:then:children:)``) names policies for some of its
/// keys, and those keys merge by their own. Every policy keeps the same laws: symmetric to the
/// byte, identity (`merge(b, b, x) == x`), idempotent (`merge(b, x, x) == x`) except
/// ``counter``, whose point is that two equal increments are two increments.
public indirect enum MergePolicy: Hashable, Sendable {
    /// Three-way per key, recursively. Keys named in `children` merge by their policy, any
    /// other key by `others` (a map's entries: `additionalProperties`), else by `fields`.
    /// A key changed on both sides to different values keeps the greater one in canonical
    /// order (content decides, never the side), and the other is recorded.
    case fields([String: MergePolicy], others: MergePolicy?)
    /// The whole value of the side whose field `field` is greater (content breaks ties);
    /// keys named in `children` still merge by their own policy. A stamp from the future (see
    /// ``MergeContext``) is flagged in the record, and with `.clamp` counts as the merging
    /// device's clock.
    case lww(String, children: [String: MergePolicy], future: MergeClock.FutureStamps = .flag)
    /// The whole value of the side with the greater version `field`, ties by `then`, then by
    /// content; keys named in `children` merge by their own policy.
    case highest(String, then: String?, children: [String: MergePolicy])
    /// A map whose entries merge one by one: an entry changed on both sides comes whole from
    /// the side whose entry field `by` is greater (content breaks ties).
    case entriesLatest(by: String)
    /// Immutable once created: equal on both sides, kept; created differently on both sides,
    /// the first in canonical order kept; changed or deleted after creation, refused — the
    /// base kept. Every refusal is recorded.
    case appendOnly
    /// Append-only, but a document created differently on both sides comes from the side whose
    /// field `by` is greater (a duplicate answer: the later one wins), the other recorded.
    case appendOnlyLatest(by: String)
    /// An integer that counts: `base + (ours − base) + (theirs − base)`, so no increment is lost.
    case counter
    /// The greater of the two changed values: numbers by value, time stamps (ISO 8601 text)
    /// by their text.
    case max
    /// The smaller of the two changed values, compared as ``max`` compares them.
    case min
    /// Arrays as sets: what either side added, less what either side removed, in canonical order.
    case union

    /// The name records and messages use.
    public var name: PolicyName {
        switch self {
        case .fields: .fields
        case .lww(let field, _, let future): .lww(field, futureClamped: future == .clamp)
        case .highest(let field, let then, _): .highest(field, then: then)
        case .entriesLatest(let field): .entriesLatest(by: field)
        case .appendOnly: .appendOnly
        case .appendOnlyLatest(let field): .appendOnlyLatest(by: field)
        case .counter: .counter
        case .max: .max
        case .min: .min
        case .union: .union
        }
    }

    /// Whether documents of this policy never change once created.
    public var isAppendOnly: Bool {
        switch self {
        case .appendOnly, .appendOnlyLatest: true
        default: false
        }
    }

    /// Whether the policy counts increments somewhere in its value (``counter``, here or in a
    /// key it names): then two sides that made the same change made it twice, so equal sides
    /// still merge (`base + (ours − base) + (theirs − base)`), and the policy is not
    /// idempotent.
    public var countsIncrements: Bool {
        switch self {
        case .counter: true
        case .fields(let children, let others): children.values.contains { $0.countsIncrements } || others?.countsIncrements == true
        case .lww(_, let children, _), .highest(_, _, let children): children.values.contains { $0.countsIncrements }
        default: false
        }
    }

    /// Merge by `fields` with nothing declared: the default of every value.
    public static let plain = MergePolicy.fields([:], others: nil)

    /// The policies this policy names for keys of an object value.
    package var children: [String: MergePolicy] {
        switch self {
        case .fields(let children, _), .lww(_, let children, _), .highest(_, _, let children): children
        default: [:]
        }
    }
}
