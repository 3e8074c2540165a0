import CairnMerge
import CairnTestSupport
import Foundation
import Testing

extension FaultInjectionTests {
    /// A full disk and failing I/O under `put`, `rm`, `checkpoint` and `sync` (strace's
    /// `error=ENOSPC` on writes, `error=EIO` on fsyncs and `syncfs`, either on renames; `ENOSPC` on
    /// `mkdir` and `link`, `EIO` on `unlink`), one call at a time (a seeded sample, every kind of
    /// call in it, where a command makes many): the command exits non-zero with one line saying
    /// what failed — or exits 0 with its work done, when the failed call was only output or was
    /// tried again —, leaves nothing half written and no temporary file, and a plain retry ends on
    /// the state a run without the error leaves.
    @Suite struct IOErrorTests {
        /// The error each kind of call gets; renames get both, on alternate points.
        static func error(for call: String, occurrence: Int) -> String {
            switch call {
            case "fsync", "fdatasync", "syncfs", "unlink", "unlinkat": "EIO"
            case "rename", "renameat", "renameat2": occurrence % 2 == 0 ? "EIO" : "ENOSPC"
            default: "ENOSPC"
            }
        }

        /// At most this many points per scenario, a seeded sample when there are more.
        static let pointsPerScenario = 30

        @Test(.enabled(if: SyscallTracer.isAvailable, "needs strace (scripts/install-deps.sh --tests)"))
        func everyIOErrorIsReportedAndRetried() throws {
            let seed = FaultScenario.seed
            let tallies = try FaultHarness.forEachScenario("cairn-ioerror", seed: seed) { harness, tally in
                var points = harness.points().map { point in
                    var fault = point
                    fault.error = Self.error(for: point.call, occurrence: point.occurrence)
                    return fault
                }
                if points.count > Self.pointsPerScenario {
                    // A seeded sample that holds every kind of call at least once.
                    var random = SplitMix(seed: seed ^ UInt64(points.count))
                    points.shuffle(using: &random)
                    var kinds = Set<String>()
                    let firsts = points.filter { kinds.insert($0.call).inserted }
                    let rest = points.filter { point in !firsts.contains { $0.description == point.description } }
                    points = firsts + rest.prefix(max(0, Self.pointsPerScenario - firsts.count))
                }
                for fault in points {
                    if try !harness.fail(at: fault, into: &tally) { tally.unreached += 1 }
                }
            }
            print("I/O error points (CAIRN_FAULT_SEED=\(seed)):")
            for tally in tallies {
                print("  " + tally.summary + ", \(tally.failedClearly) failed with one clear line, \(tally.succeeded) succeeded")
                print("    exited 0 at: " + tally.succeededAt.joined(separator: ", "))
                for message in tally.messages { print("    " + message.trimmingCharacters(in: .newlines)) }
                for problem in tally.problems.prefix(10) { Issue.record(Comment(rawValue: problem)) }
                #expect(tally.total > 0, "\(tally.scenario): no I/O error point reached")
            }
            let total = tallies.reduce(0) { $0 + $1.total }
            print(
                "  total: \(total) I/O error points, \(tallies.reduce(0) { $0 + $1.failedClearly }) clear failures, \(tallies.reduce(0) { $0 + $1.succeeded }) successes, \(tallies.reduce(0) { $0 + $1.losses }) losses"
            )
            #expect(tallies.allSatisfy { $0.losses == 0 })
            #expect(tallies.allSatisfy { $0.problems.isEmpty })
        }
    }
}
