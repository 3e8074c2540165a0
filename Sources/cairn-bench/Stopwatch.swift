#if canImport(Glibc)
import Glibc
#endif

/// Wall time from the monotonic clock.
enum Stopwatch {
    /// Now, in milliseconds since an arbitrary start.
    static func now() -> Double {
        var time = Glibc.timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) * 1_000 + Double(time.tv_nsec) / 1_000_000
    }

    /// How long `body` took, in milliseconds.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }
}
