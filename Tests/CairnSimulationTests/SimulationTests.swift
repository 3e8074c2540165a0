import CairnCore
import CairnSimulation
import CairnTestSupport
import Foundation
import Testing

/// `cairn simulate`'s engine: schedules keep their invariants, and a seed replays the same
/// schedule.
@Suite struct SimulationTests {
    @Test func schedulesKeepTheirInvariantsAndReplayFromTheirSeed() throws {
        let simulation = Simulation(devices: 3, steps: 40, schemaSet: try shippedSchemaSet("life-in-uk"))
        var merges = 0
        for seed: UInt64 in [7, 8, 9] {
            let first = TemporaryFolder("cairn-simulation")
            let report = try simulation.run(seed: seed, in: first.path)
            #expect(report.passed, "seed \(seed): \(report.violations)")
            #expect(report.writes > 0 && report.syncs >= 6)
            merges += report.merges
            // The operations replay; what a sync found may not (two devices that make the very
            // same commit in the same second make one commit, and a later sync has less to do).
            func operations(_ report: SimulationReport) -> [Substring] { report.schedule.map { $0.prefix { $0 != ":" } } }
            let again = TemporaryFolder("cairn-simulation")
            #expect(operations(try simulation.run(seed: seed, in: again.path)) == operations(report), "seed \(seed) replays")
        }
        #expect(merges > 0, "three schedules of three devices merge at least once")
    }
}
