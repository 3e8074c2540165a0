/// Wall time from the monotonic clock.
enum Stopwatch {
    private static let origin = ContinuousClock.now

    /// Now, in milliseconds since an arbitrary start.
    static func now() -> Double {
        let elapsed = ContinuousClock.now - origin
        let parts = elapsed.components
        return Double(parts.seconds) * 1_000 + Double(parts.attoseconds) / 1e15
    }

    /// How long `body` took, in milliseconds.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }
}
