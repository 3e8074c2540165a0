import CairnTestSupport
import Foundation

extension FaultHarness {
    /// Where the harness works: the memory file system `/dev/shm` when there is one (an fsync
    /// costs nothing there, and the harness makes thousands), else the temporary folder.
    static var scratchBase: String? {
        FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : nil
    }

    /// Builds every scenario's harness (its template and its run without faults), then runs
    /// `body` on each, the scenarios with the most points first, so that the two workers
    /// (one per core) end together. Returns the tallies in the catalog's order.
    static func forEachScenario(
        _ label: String, seed: UInt64,
        _ body: @escaping @Sendable (FaultHarness, inout FaultTally) throws -> Void
    ) throws -> [FaultTally] {
        let folder = TemporaryFolder(label, in: scratchBase)
        let scenarios = FaultScenario.catalog(seed: seed)
        let built = try FaultWorkers.run(Array(scenarios.indices)) { index in
            let started = Date()
            let harness = try FaultHarness(scenarios[index], in: folder.path + "/\(index)", seed: seed &+ UInt64(index))
            return (harness: harness, seconds: Date().timeIntervalSince(started))
        }
        let order = scenarios.indices.sorted { built[$0].harness.points().count > built[$1].harness.points().count }
        return try FaultWorkers.run(order) { index in
            let started = Date()
            var tally = FaultTally(scenario: scenarios[index].name)
            try body(built[index].harness, &tally)
            tally.seconds = built[index].seconds + Date().timeIntervalSince(started)
            return tally
        }
    }
}
