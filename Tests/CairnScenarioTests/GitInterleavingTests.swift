import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Cairn and git take turns in one store, in hundreds of seeded random sequences (see
/// ``GitInterleaving``): nothing written is lost, the repository stays sound, and the
/// devices converge. `CAIRN_INTERLEAVING_RUNS` sets how many sequences run (200 by
/// default), `CAIRN_INTERLEAVING_SEED` replays one.
@Suite(.historiesVerified) struct GitInterleavingTests {
    static let seeds: [UInt64] = {
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["CAIRN_INTERLEAVING_SEED"].flatMap(UInt64.init) { return [seed] }
        let runs = environment["CAIRN_INTERLEAVING_RUNS"].flatMap(Int.init) ?? 200
        return (1...UInt64(max(1, runs))).map { $0 }
    }()

    @Test(arguments: seeds)
    func cairnAndGitTakeTurnsInOneStore(seed: UInt64) throws {
        let run = try GitInterleaving(seed: seed)
        try run.run(steps: 14)
        for failure in run.failures { Issue.record(Comment(rawValue: failure)) }
    }
}
