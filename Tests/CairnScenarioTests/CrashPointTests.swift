import CairnTestSupport
import Foundation
import Testing

extension FaultInjectionTests {
    /// `cairn put`, `rm`, `checkpoint` and `sync` killed (`SIGKILL`, through strace) at every
    /// write, fsync, syncfs, rename, unlink, link, mkdir and ftruncate they make, one point at a
    /// time (by default the points `FaultScenario.crashPoints(of:seed:)` keeps of a long run of
    /// one call; every one with `CAIRN_FAULT_POINTS=all`, as CI runs it): afterwards `git fsck --full` passes, HEAD is the old commit or the new one, every
    /// document whose command had succeeded is intact and the one in flight is old or new, and the
    /// command run again (then its checkpoint) ends on the state a run without the kill leaves —
    /// for a sync, on the remote and on the other device too. Stale locks are the next command's to
    /// clear; nobody helps it.
    @Suite struct CrashPointTests {
        @Test(.enabled(if: SyscallTracer.isAvailable, "needs strace (scripts/install-deps.sh --tests)"))
        func everyCrashPointLosesNothing() throws {
            let seed = FaultScenario.seed
            let tallies = try FaultHarness.forEachScenario("cairn-crash", seed: seed) { harness, tally in
                for fault in FaultScenario.crashPoints(of: harness.points(), seed: seed) {
                    if try !harness.crash(at: fault, into: &tally) { tally.unreached += 1 }
                }
            }
            let every = FaultScenario.triesEveryPoint
            print(
                "Crash points (CAIRN_FAULT_SEED=\(seed), \(every ? "every point" : "the points kept by default; CAIRN_FAULT_POINTS=all for every one")):"
            )
            for tally in tallies {
                print("  " + tally.summary)
                for problem in tally.problems.prefix(10) { Issue.record(Comment(rawValue: problem)) }
                #expect(tally.total > 0, "\(tally.scenario): no crash point reached")
            }
            let total = tallies.reduce(0) { $0 + $1.total }
            let losses = tallies.reduce(0) { $0 + $1.losses }
            print("  total: \(total) crash points, \(losses) losses")
            #expect(total >= (every ? 500 : 250))
            #expect(losses == 0)
            #expect(tallies.allSatisfy { $0.problems.isEmpty })
        }
    }
}
