import CairnCore
import CairnMerge
import CairnSimulation
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// `cairn simulate`'s engine: schedules of every shipped set keep the invariants their
/// policies promise, and a seed replays the same schedule.
@Suite(.historiesVerified) struct SimulationTests {
    static let sets = ["life-in-uk", "edumind", "bonfire", "remi", "oybc", "remi-v1"]

    @Test(arguments: sets)
    func schedulesOfEverySetKeepWhatTheirPoliciesPromise(_ name: String) throws {
        let simulation = Simulation(devices: 3, steps: 40, schemaSet: try shippedSchemaSet(name))
        #expect(try simulation.skippedKinds().isEmpty, "\(name) leaves nothing out")
        var merges = 0
        var promises: [String: Int] = [:]
        for seed: UInt64 in [7, 8] {
            let folder = TemporaryFolder("cairn-simulation")
            let report = try simulation.run(seed: seed, in: folder.path)
            #expect(report.passed, "\(name) seed \(seed): \(report.violations)")
            #expect(report.writes > 5 && report.syncs >= 6)
            merges += report.merges
            promises.merge(report.promises, uniquingKeysWith: +)
        }
        #expect(merges > 0, "\(name): two schedules of three devices merge at least once")
        #expect(!promises.isEmpty, "\(name): some values were checked against their policy")
    }

    @Test func aSeedReplaysTheSameOperations() throws {
        let simulation = Simulation(devices: 3, steps: 40, schemaSet: try shippedSchemaSet("oybc"))
        // The operations replay; what a sync found may not (two devices that make the very
        // same commit in the same second make one commit, and a later sync has less to do).
        func operations(_ report: SimulationReport) -> [Substring] { report.schedule.map { $0.prefix { $0 != ":" } } }
        let first = try simulation.run(seed: 11, in: TemporaryFolder("cairn-simulation").path)
        let again = try simulation.run(seed: 11, in: TemporaryFolder("cairn-simulation").path)
        #expect(operations(first) == operations(again))
        #expect(first.schedule.contains { $0.contains("create users/u1/boards/") }, "a board, the parent of board tasks, is created")
        let other = try simulation.run(seed: 12, in: TemporaryFolder("cairn-simulation").path)
        #expect(operations(other) != operations(first))
    }

    @Test func aKindThatCannotBeGeneratedIsNamedAndLeftOut() throws {
        let files = SchemaSetFiles(
            name: "codes",
            files: [
                "code.schema.json": Array(
                    #"{"x-cairn": {"path": "users/{uid}/codes/{codeId}"}, "type": "object", "required": ["code"], "properties": {"code": {"type": "string", "pattern": "^(?!x)[a-z]+$"}}}"#
                        .utf8),
                "tally.schema.json": Array(
                    #"{"x-cairn": {"path": "users/{uid}/tallies/{tallyId}"}, "type": "object", "properties": {"best": {"type": "integer", "x-merge": "max"}, "tags": {"type": "array", "items": {"type": "string"}, "x-merge": "union"}}}"#
                        .utf8),
            ])
        let simulation = Simulation(devices: 2, steps: 30, schemaSet: files)
        let skipped = try simulation.skippedKinds()
        #expect(skipped.count == 1 && skipped[0].hasPrefix("code.schema.json is left out: "), "\(skipped)")
        let report = try simulation.run(seed: 1, in: TemporaryFolder("cairn-simulation").path)
        #expect(report.passed, "\(report.violations)")
        #expect(!report.schedule.contains { $0.contains("/codes/") })
        #expect(report.schedule.contains { $0.contains("/tallies/") })
    }
}
