import Foundation

/// The seeds and sizes of the tests that draw random sequences of operations and check them
/// against a model: each sequence replays from its seed. `CAIRN_PROPERTY_SEED=N` runs that
/// seed alone (the one a failure names); `CAIRN_PROPERTY_SCALE=K` runs K times the seeds
/// and steps of the default, which is sized for every run of the suite.
public enum PropertySeeds {
    /// The seeds to run: the one `CAIRN_PROPERTY_SEED` names, else `count` (times the scale)
    /// from `first`.
    public static func seeds(_ count: Int, from first: UInt64 = 1) -> [UInt64] {
        if let seed = environment("CAIRN_PROPERTY_SEED").flatMap(UInt64.init) { return [seed] }
        return (0..<UInt64(count * scale)).map { first + $0 }
    }

    /// `steps` times the scale.
    public static func steps(_ steps: Int) -> Int { steps * scale }

    /// How many times the default seeds and steps to run (`CAIRN_PROPERTY_SCALE`, at least 1).
    public static var scale: Int { max(1, environment("CAIRN_PROPERTY_SCALE").flatMap { Int($0) } ?? 1) }

    /// How a failure names its sequence: the seed, how to replay it, and its last operations.
    public static func replay(_ seed: UInt64, _ log: [String]) -> String {
        "seed \(seed) (replay: CAIRN_PROPERTY_SEED=\(seed)); the operations, the last one failing: "
            + log.suffix(15).joined(separator: " | ")
    }

    private static func environment(_ name: String) -> String? {
        ProcessInfo.processInfo.environment[name]
    }
}
