/// What one simulated schedule did and whether its invariants held.
public struct SimulationReport: Sendable {
    /// The seed that replays the schedule.
    public var seed: UInt64
    /// The operations, one line each (`d1 create users/u1/examAttempts/e-x7k2p9qa`), in order;
    /// a sync's line also says what it found. A replay of the seed gives the same lines.
    public var schedule: [String] = []
    public var writes = 0
    public var deletes = 0
    public var checkpoints = 0
    public var syncs = 0
    public var merges = 0
    public var conflicts = 0
    public var kills = 0
    public var offlinePeriods = 0
    /// How many values each promise was checked for (`counter`, `max`, `latest`, …).
    public var promises: [String: Int] = [:]
    /// The invariants that did not hold, each saying what was expected and what was found.
    public var violations: [String] = []

    public init(seed: UInt64) {
        self.seed = seed
    }

    /// Whether every invariant held.
    public var passed: Bool { violations.isEmpty }
}
