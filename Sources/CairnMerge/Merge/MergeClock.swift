/// Time stamps as last-writer-wins reads them, and what it does with stamps from the future
/// (a device whose clock runs ahead of the merging device's, ``MergeContext/clock``).
public enum MergeClock {
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

    /// `3 h 2 min`, `45 min`, `12 s`.
    static func describe(_ milliseconds: Int64) -> String {
        let seconds = milliseconds / 1_000
        if seconds >= 3_600 { return "\(seconds / 3_600) h \(seconds % 3_600 / 60) min" }
        if seconds >= 60 { return "\(seconds / 60) min" }
        return "\(seconds) s"
    }
}
