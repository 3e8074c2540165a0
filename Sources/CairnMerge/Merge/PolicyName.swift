/// The name of what decided a conflict, as records, messages and merge commits spell it:
/// a policy (`lww(updatedAt)`, `counter`, ``MergePolicy/name``) or the tree merge's own
/// ``cascade``.
///
/// The spelling is the record's: a name read back from a merge commit is the text it holds,
/// so a record writes back byte for byte.
public struct PolicyName: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// ``MergePolicy/fields(_:others:)``.
    public static let fields = PolicyName(rawValue: "fields")
    /// ``MergePolicy/appendOnly``.
    public static let appendOnly = PolicyName(rawValue: "append-only")
    /// ``MergePolicy/counter``.
    public static let counter = PolicyName(rawValue: "counter")
    /// ``MergePolicy/max``.
    public static let max = PolicyName(rawValue: "max")
    /// ``MergePolicy/min``.
    public static let min = PolicyName(rawValue: "min")
    /// ``MergePolicy/union``.
    public static let union = PolicyName(rawValue: "union")
    /// Not a policy: a document deleted on one side comes back because the other changed a
    /// document below it (modify beats delete, and no document is left without its parent).
    public static let cascade = PolicyName(rawValue: "cascade")
    /// An asset field both sides set differently, kept whole from one side (its oid and size
    /// are never taken apart): the greater in canonical order, whichever side has it.
    public static let asset = PolicyName(rawValue: "asset")

    /// ``MergePolicy/lww(_:children:future:)``: `lww(F)`, `lww(F, future clamped)`.
    public static func lww(_ field: String, futureClamped: Bool) -> PolicyName {
        PolicyName(rawValue: futureClamped ? "lww(\(field), future clamped)" : "lww(\(field))")
    }

    /// ``MergePolicy/highest(_:then:children:)``: `highest(F)`, `highest(F, then G)`.
    public static func highest(_ field: String, then: String?) -> PolicyName {
        PolicyName(rawValue: then.map { "highest(\(field), then \($0))" } ?? "highest(\(field))")
    }

    /// ``MergePolicy/entriesLatest(by:)``: `entries latest by F`.
    public static func entriesLatest(by field: String) -> PolicyName {
        PolicyName(rawValue: "entries latest by \(field)")
    }

    /// ``MergePolicy/appendOnlyLatest(by:)``: `append-only, duplicates latest by F`.
    public static func appendOnlyLatest(by field: String) -> PolicyName {
        PolicyName(rawValue: "append-only, duplicates latest by \(field)")
    }
}
