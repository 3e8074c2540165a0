import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// `cairn simulate` as a user runs it: schedules, their figures, bad options, and the exam
/// session's pushes.
@Suite struct SimulateCommandTests {
    @Test func schedulesRunAndSayWhatTheyChecked() throws {
        let result = try runProcess(CLI.executable, ["simulate", "--devices", "2", "--steps", "20", "--schedules", "2", "--seed", "3"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("2 schedules of 2 devices × 20 steps (seeds 3…4): every invariant held\n"))
        let verbose = try runProcess(CLI.executable, ["simulate", "--devices", "2", "--steps", "5", "--schedules", "1", "--seed", "3", "--verbose"])
        #expect(verbose.stdout.hasPrefix("schedule 3:\n  d"), "\(verbose.stdout)")
        #expect(verbose.stdout.contains("final sync"))
        let other = try runProcess(CLI.executable, ["simulate", "--schema", "oybc", "--schedules", "1"])
        #expect(other.status == 1 && other.stderr.contains("plays the life-in-uk app's documents"), "\(other.stderr)")
        for bad in [["--devices", "0"], ["--steps", "0"], ["--schedules", "-1"]] {
            let refused = try runProcess(CLI.executable, ["simulate"] + bad)
            #expect(refused.status == 64, "\(bad): \(refused.stderr)")
        }
    }

    @Test func theExamSessionPushesTwice() throws {
        let result = try runProcess(CLI.executable, ["simulate", "exam-session"])
        #expect(result.status == 0, "\(result.stderr)")
        let row = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("cairn (life-in-uk policies)") })
        let figures = row.split(separator: " ").compactMap { Int($0) }
        #expect(figures.count == 4, "\(row)")
        #expect(figures[0] > 2_400, "a local write per answer and tick")
        #expect(figures[2] == 2, "two pushes: on submit, and in the background")
        #expect(figures[1] < 60, "checkpoints are throttled, not one per write")
    }
}
