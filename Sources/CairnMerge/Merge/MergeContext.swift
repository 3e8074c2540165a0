/// What a merge knows beyond its three inputs: the clock of the device that merges, for what
/// last-writer-wins does with stamps from the future (a device whose clock runs ahead).
///
/// Merges never read a clock themselves: the store passes its device's clock in the context,
/// and without one — in tests, in pure merges — no stamp is ever from the future, so a merge
/// depends on its three inputs only.
public struct MergeContext: Hashable, Sendable {
    /// The merging device's time, in milliseconds since 1970-01-01 UTC; nil: unknown.
    public var clock: Int64?

    public init(clock: Int64? = nil) {
        self.clock = clock
    }

    /// How far `stamp` is ahead of ``clock`` beyond ``MergeClock/allowance``, in milliseconds;
    /// nil when it is not from the future (or the clock is unknown).
    func lead(of stamp: JSONValue?) -> Int64? {
        guard let clock, let time = MergeClock.milliseconds(of: stamp), time > clock &+ MergeClock.allowance else {
            return nil
        }
        return time - clock
    }

    /// ``clock`` written like `stamp`: milliseconds or seconds, as an integer. Nil for stamps
    /// of other forms, which are flagged but never clamped.
    func clamped(like stamp: JSONValue?) -> JSONValue? {
        guard let clock, case .integer(let value)? = stamp else { return nil }
        return .integer(value >= 100_000_000_000 ? clock : clock / 1_000)
    }
}
