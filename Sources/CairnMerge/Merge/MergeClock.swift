/// The clock of the device that merges, for what last-writer-wins does with stamps from the
/// future (a device whose clock runs ahead).
///
/// Merges never read the clock themselves: the store sets ``now`` around a merge
/// (`MergeClock.$now.withValue(…)`), and without it — in tests, in pure merges — no stamp is
/// ever from the future, so a merge depends on its three inputs only.
public enum MergeClock {
    /// The merging device's time, in milliseconds since 1970-01-01 UTC; nil: unknown.
    @TaskLocal public static var now: Int64?

    /// How far ahead of the merging device's clock a stamp may be before it is from the
    /// future: five minutes, more than phones and laptops that set their clocks from the
    /// network drift apart.
    public static let allowance: Int64 = 5 * 60 * 1_000

    /// What last-writer-wins does with a stamp from the future (`"future"` beside `"lww"`).
    public enum FutureStamps: String, Sendable, Hashable {
        /// The stamp wins or loses by its value, as any other; the decision's record says
        /// that it was from the future.
        case flag
        /// The stamp counts as the merging device's clock, and the kept value carries that
        /// time instead (integer stamps, in milliseconds or seconds): a device whose clock
        /// runs ahead cannot keep winning over writes made after the merge.
        case clamp
    }

    /// The time a stamp stands for, in milliseconds: integers and doubles at or above 10¹¹
    /// are milliseconds since 1970, smaller ones seconds; text in ISO 8601
    /// (`2026-11-22T08:00:00Z`, `…T08:00:00.250+01:00`). Nil for anything else.
    public static func milliseconds(of stamp: JSONValue?) -> Int64? {
        switch stamp {
        case .integer(let value)?:
            return value >= 100_000_000_000 ? value : value.multipliedReportingOverflow(by: 1_000).overflow ? nil : value * 1_000
        case .double(let value)?:
            guard value.isFinite, abs(value) < 9e15 else { return nil }
            return value >= 1e11 ? Int64(value) : Int64(value * 1_000)
        case .string(let text)?:
            return ISO8601Stamp(text)?.milliseconds
        default:
            return nil
        }
    }

    /// How far `stamp` is ahead of ``now`` beyond the ``allowance``, in milliseconds; nil when
    /// it is not from the future (or the clock is unknown).
    static func lead(of stamp: JSONValue?) -> Int64? {
        guard let now, let time = milliseconds(of: stamp), time > now &+ allowance else { return nil }
        return time - now
    }

    /// ``now`` written like `stamp`: milliseconds or seconds, as an integer. Nil for stamps
    /// of other forms, which are flagged but never clamped.
    static func clamped(like stamp: JSONValue?) -> JSONValue? {
        guard let now, case .integer(let value)? = stamp else { return nil }
        return .integer(value >= 100_000_000_000 ? now : now / 1_000)
    }

    /// `3 h 2 min`, `45 min`, `12 s`.
    static func describe(_ milliseconds: Int64) -> String {
        let seconds = milliseconds / 1_000
        if seconds >= 3_600 { return "\(seconds / 3_600) h \(seconds % 3_600 / 60) min" }
        if seconds >= 60 { return "\(seconds / 60) min" }
        return "\(seconds) s"
    }
}
