import ArgumentParser
import CairnCommandLine
import CairnCore
import CairnSimulation

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#endif

struct Simulate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Replay devices doing seeded random work against one remote, and check the invariants.",
        discussion: """
            Each schedule gives N devices of one user random operations on documents generated \
            from the schema set's JSON Schemas, chosen per policy (new append-only documents, \
            counters incremented, entries stamped, lww/highest objects changed with their stamps \
            raised, max/min values moved, union elements added, deletes where allowed), with \
            checkpoints, syncs, processes killed and offline periods in a random interleaving, \
            then syncs them all and checks: every device on the remote's tree, append-only \
            documents byte for byte, counters equal to the increments, each entry and lww/highest \
            object as written with the greatest stamp, max/min the greatest/smallest written, \
            unions every element added, derived fields as computed, every document valid. A \
            failing schedule prints its seed and operations; --seed with --schedules 1 replays \
            it. Exit status 1 when an invariant did not hold.
            """,
        subcommands: [Devices.self, ExamSession.self],
        defaultSubcommand: Devices.self)

    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "devices", abstract: "Random schedules of several devices (the default).")

        @Option(help: "Devices of the user.") var devices = 3
        @Option(help: "Operations per schedule.") var steps = 40
        @Option(help: "How many schedules.") var schedules = 20
        @Option(help: "The first schedule's seed (the others follow it).") var seed: UInt64 = 1
        @Option(help: ArgumentHelp("The schema set whose documents are simulated: a name, or a folder path.", valueName: "set"))
        var schema = "life-in-uk"
        @Flag(help: "Print every schedule's operations.") var verbose = false

        func validate() throws {
            guard (1...16).contains(devices) else { throw ValidationError("--devices is 1 to 16") }
            guard (1...100_000).contains(steps) else { throw ValidationError("--steps is 1 to 100000") }
            guard (1...1_000_000).contains(schedules) else { throw ValidationError("--schedules is 1 to 1000000") }
        }

        func run() throws {
            let simulation = Simulation(devices: devices, steps: steps, schemaSet: try SchemaLocator.set(named: schema))
            let started = Date()
            for skipped in try simulation.skippedKinds() { print("skipped: " + skipped) }
            var total = SimulationReport(seed: seed)
            for index in 0..<schedules {
                let seed = seed &+ UInt64(index)
                let folder = try Self.temporaryFolder()
                defer { try? FileManager.default.removeItem(atPath: folder) }
                let report = try simulation.run(seed: seed, in: folder)
                if verbose || !report.passed {
                    print("schedule \(seed):")
                    for line in report.schedule { print("  " + line) }
                }
                guard report.passed else {
                    print(
                        "FAILED: seed \(seed) (replay: cairn simulate --schema \(Self.quoted(schema)) --devices \(devices) --steps \(steps) --seed \(seed) --schedules 1 --verbose)"
                    )
                    for violation in report.violations { print("  " + violation) }
                    throw ExitCode(1)
                }
                if isatty(2) == 1, !verbose, schedules >= 100, (index + 1) % 50 == 0 || index + 1 == schedules {
                    Output.error("\r\(index + 1)/\(schedules) schedules\(index + 1 == schedules ? "\n" : "")")
                }
                total.writes += report.writes
                total.deletes += report.deletes
                total.promises.merge(report.promises, uniquingKeysWith: +)
                total.checkpoints += report.checkpoints
                total.syncs += report.syncs
                total.merges += report.merges
                total.conflicts += report.conflicts
                total.kills += report.kills
                total.offlinePeriods += report.offlinePeriods
            }
            let seconds = Date().timeIntervalSince(started)
            print(
                "\(schedules) schedule\(schedules == 1 ? "" : "s") of \(devices) devices × \(steps) steps (seeds \(seed)…\(seed &+ UInt64(schedules - 1))): every invariant held"
            )
            let promises = total.promises.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            print("  values checked: \(promises.isEmpty ? "none" : promises)")
            print(
                "  \(total.writes) writes, \(total.deletes) deletes, \(total.checkpoints) checkpoints, \(total.syncs) syncs, \(total.merges) merges, \(total.conflicts) conflicts decided, \(total.kills) kills, \(total.offlinePeriods) offline periods; \(Int(seconds.rounded())) s"
            )
        }

        /// `text` as a shell word: quoted when it holds anything but safe characters.
        static func quoted(_ text: String) -> String {
            let safe = text.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_./+:=@".unicodeScalars.contains($0))
            }
            return safe && !text.isEmpty
                ? text : "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
        }

        static func temporaryFolder() throws -> String {
            try FileSystem.makeTemporaryFolder(prefix: "cairn-simulate")
        }
    }
}

extension Simulate {
    struct ExamSession: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "exam-session",
            abstract: "Seed 000's exam session: what reaches the remote, beside the Firestore budgets.")

        func run() throws {
            let folder = try Devices.temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let budget = ExamSessionBudget()
            let report = try budget.run(in: folder, schemaSet: try SchemaLocator.set(named: "life-in-uk"))
            print(
                "Exam session: \(budget.questions) answers over \(budget.seconds / 60) min, the in-progress exam written on every answer and every 1 s tick, submit at \(budget.submitAt / 60) min, a book section marked twice"
            )
            print("")
            print("                                  local writes  checkpoints  pushes  bytes pushed")
            print(
                "cairn (life-in-uk policies)       "
                    + [report.localWrites, report.checkpoints, report.pushes, report.bytesPushed]
                    .enumerated().map { Output.pad(String($1), to: [14, 13, 8, 12][$0], right: true) }.joined())
            print(
                "Firestore, a write per action     " + Output.pad(String(report.naiveWrites), to: 14, right: true)
                    + "  (one billed write each)")
            print(
                "Firestore, seed's recommendation  " + Output.pad("≤ \(report.recommendedWrites)", to: 14, right: true)
                    + "  (1–3 checkpoints, attempt, summary, 2 marks)")
            guard report.pushes <= 2 else {
                throw CairnError(.invalidInput, "the session pushed \(report.pushes) times; the goal is at most 2")
            }
        }
    }
}
