import CairnTestSupport
import Foundation

extension FaultHarness {
    /// Where the harness works: the memory file system `/dev/shm` when there is one (an fsync
    /// costs nothing there, and the harness makes thousands), else the temporary folder.
    static var scratchBase: String? {
        FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : nil
    }

    /// Builds every scenario's harness and runs `body` on it, two scenarios at a time (each in
    /// its own folder), and returns their tallies in the catalog's order.
    static func forEachScenario(
        _ label: String, seed: UInt64,
        _ body: @escaping @Sendable (FaultHarness, inout FaultTally) throws -> Void
    ) async throws -> [FaultTally] {
        let folder = TemporaryFolder(label, in: scratchBase)
        let scenarios = FaultScenario.catalog(seed: seed)
        let width = 2
        return try await withThrowingTaskGroup(of: (Int, FaultTally).self) { group in
            var tallies = [FaultTally?](repeating: nil, count: scenarios.count)
            for (index, scenario) in scenarios.enumerated() {
                if index >= width, let (done, tally) = try await group.next() { tallies[done] = tally }
                group.addTask {
                    let started = Date()
                    let harness = try FaultHarness(scenario, in: folder.path + "/\(index)", seed: seed &+ UInt64(index))
                    var tally = FaultTally(scenario: scenario.name)
                    try body(harness, &tally)
                    tally.seconds = Date().timeIntervalSince(started)
                    return (index, tally)
                }
            }
            for try await (done, tally) in group { tallies[done] = tally }
            return tallies.compactMap { $0 }
        }
    }
}
