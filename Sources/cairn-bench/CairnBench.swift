import ArgumentParser
import CairnCore
import CairnMerge
import Foundation
import Logging

/// Times Cairn against the tools a user would pick instead — git for history and sync,
/// SQLite for local reads and writes — in the same run, and writes the table to
/// BENCHMARKS.md. Run it through `scripts/bench.sh`, which builds it in release mode.
@main
struct CairnBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cairn-bench",
        abstract: "Benchmark Cairn against git and SQLite and write BENCHMARKS.md.")

    enum Workload: String, CaseIterable, ExpressibleByArgument {
        case checkpoint, index, sync, merge, clone, documents, content, exam, history, serving, cluster, link
        case pushCost = "push-cost"
    }

    @Option(help: "Store sizes in documents, comma-separated.")
    var sizes = "1000,10000"

    @Option(help: "Rounds per workload (each side runs once a round).")
    var rounds = 9

    @Option(
        help: ArgumentHelp(
            "Workloads to run, comma-separated (\(Workload.allCases.map(\.rawValue).joined(separator: ","))).",
            discussion:
                "By default all; above 10,000 documents, sync, link and the timing of clone only when named here (clone's peak memory is measured at every size)."
        ))
    var only: String?

    @Option(
        help: ArgumentHelp(
            "A schema set's folder to draw the stores' documents from (default: the Life in the UK documents the benchmark is shaped after).",
            discussion:
                "Any app's set: valid random documents of its kinds, changed as its merge policies expect. Runs the workloads that take any documents: \(Self.anySet.map(\.rawValue).joined(separator: ","))."
        ))
    var schema: String?

    /// The workloads that run on documents drawn from any schema set (`--schema`).
    static let anySet: [Workload] = [.checkpoint, .merge, .documents]

    @Option(help: "Checkpoints the history workload makes (a store of 1,000 documents, two changed a checkpoint).")
    var checkpoints = 10_000

    @Option(name: .customLong("load-users"), help: "The users of the serving and cluster workloads' load runs (two devices each).")
    var loadUsers = 100

    @Option(name: .customLong("backup-users"), help: "The users of the cluster workload's backups.")
    var backupUsers = 1_000

    @Option(help: "The cairn tool to time (default: the one built beside this program).")
    var cairn: String?

    @Option(help: "Where to write the Markdown table (none: -; default: BENCHMARKS.md, and none with --schema).")
    var output: String?

    @Option(help: "The scratch folder for the generated stores (default: $TMPDIR, else /tmp).")
    var scratch: String?

    @Flag(help: "Keep the scratch folder (the generated stores and the last workload's copies) to look into.")
    var keep = false

    @Option(help: "How the report names the command that made it.")
    var commandLine = "bash scripts/bench.sh"

    func run() throws {
        // The stores' logs would interleave with the figures.
        LoggingSystem.bootstrap { _ in SwiftLogNoOpLogHandler() }
        let sizes = try self.sizes.split(separator: ",").map { text -> Int in
            guard let size = Int(text.trimmingCharacters(in: .whitespaces)), size >= 200 else {
                throw ValidationError("--sizes takes whole numbers of at least 200, like 1000,10000; not \(text)")
            }
            return size
        }
        let named = only != nil
        let every = schema == nil ? Workload.allCases : Self.anySet
        let workloads = try Set(
            (only ?? every.map(\.rawValue).joined(separator: ",")).split(separator: ",").map { text -> Workload in
                guard let workload = Workload(rawValue: String(text)) else {
                    throw ValidationError(
                        "unknown workload \(text); choose from \(Workload.allCases.map(\.rawValue).joined(separator: ","))")
                }
                guard every.contains(workload) else {
                    throw ValidationError(
                        "--schema runs only \(every.map(\.rawValue).joined(separator: ",")); \(text) is shaped after the Life in the UK documents"
                    )
                }
                return workload
            })
        guard checkpoints >= 10 else { throw ValidationError("--checkpoints must be at least 10") }
        guard rounds >= 3 else { throw ValidationError("--rounds must be at least 3 for a median and a spread") }
        // Absolute: git runs the tool as the merge driver from the repository's folder. By
        // default the one beside this program, wherever it was started from.
        let beside =
            URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
            .deletingLastPathComponent().path + "/cairn"
        let tool = URL(fileURLWithPath: cairn ?? beside).absoluteURL.standardizedFileURL.path
        guard FileManager.default.isExecutableFile(atPath: tool) else {
            throw ValidationError("no cairn tool at \(tool); build it (swift build -c release) or give --cairn PATH")
        }
        let base = scratch ?? ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp"
        let folder = base + "/cairn-bench-\(getpid())"
        let bench = try Workbench(
            cairn: tool, folder: folder, rounds: rounds, keep: keep,
            schemaFolder: schema ?? "schema/life-in-uk", generating: schema != nil)
        defer {
            if keep {
                say("Kept \(folder)")
            } else {
                try? FileManager.default.removeItem(atPath: folder)
            }
        }

        if let generated = bench.generated {
            say(
                "Documents drawn from the schema set \(bench.schemaSet.name): \(generated.kinds.map(\.file).joined(separator: ", "))"
                    + (generated.kinds.count < generated.set.kinds.count
                        ? " (the other kinds cannot be generated: cairn simulate --schema says why)" : ""))
        }
        var report = Report(
            machine: .current(workFolder: base, git: bench.git),
            command: commandLine, rounds: rounds)
        say(report.machine.lines.joined(separator: "\n"))
        func record(_ rows: [Comparison]) {
            for row in rows {
                say(
                    "  \(row.workload) at \(row.documents.formatted()): \(row.cairnSide) \(row.cairn.summary) \(row.unit), "
                        + "\(row.peerSide) \(row.peer.summary) \(row.unit): \(Samples.format(row.speedup))× faster, \(row.verdict)")
            }
            report.comparisons += rows
        }
        for documents in sizes {
            say("\(documents.formatted()) documents")
            if workloads.contains(.checkpoint) { record(try CheckpointBenchmark(bench: bench).run(documents: documents)) }
            if workloads.contains(.index) { record(try IndexBenchmark(bench: bench).run(documents: documents)) }
            // Restoring and syncing a store of 100,000 documents take minutes a round, on
            // both sides: they run at that size only when asked for.
            let heavy = named || documents <= 10_000
            if heavy, workloads.contains(.sync) {
                for transport in SyncBenchmark.Transport.allCases {
                    record([try SyncBenchmark(bench: bench).run(documents: documents, transport: transport)])
                }
            }
            if workloads.contains(.merge) { record(try MergeBenchmark(bench: bench).run(documents: documents)) }
            if heavy, workloads.contains(.clone) {
                for transport in CloneBenchmark.Transport.allCases {
                    record([try CloneBenchmark(bench: bench).run(documents: documents, transport: transport)])
                }
                record([try CloneBenchmark(bench: bench).run(documents: documents, transport: .file, shape: .packedBooks)])
            } else if workloads.contains(.clone) {
                // Its peak memory still, over file://.
                let row = try CloneBenchmark(bench: bench).run(documents: documents, transport: .file, timing: false)
                say(
                    "  restore at \(documents.formatted()), peak memory: cairn clone \(row.cairnPeak.summary) MiB, git clone \(row.peerPeak.summary) MiB"
                )
                report.memoryOnly.append(row)
            }
            if heavy, workloads.contains(.link) {
                let (rows, figures) = try LinkBenchmark(bench: bench).run(documents: documents)
                record(rows)
                report.links += figures
            }
            if workloads.contains(.documents) { record(try DocumentBenchmark(bench: bench).run(documents: documents)) }
            if heavy, workloads.contains(.pushCost) {
                let rows = try PushCostBenchmark(bench: bench).run(documents: documents)
                for (name, value) in rows { say("  \(name): \(value)") }
                report.pushCosts += rows
            }
        }
        if workloads.contains(.content) {
            say("shared content")
            record(try ContentBenchmark(bench: bench).run(questions: 200))
        }
        report.growths = Growth.checkpoints(in: report.comparisons)
        if workloads.contains(.exam) {
            report.figures = try ExamSessionFigures(bench: bench).run()
        }
        if workloads.contains(.serving) {
            say("serving: cairn server run against lighttpd")
            var serving = ServingBenchmark(bench: bench)
            serving.loadUsers = loadUsers
            report.serving = try serving.run()
            for row in report.serving { say("  \(row.0): \(row.1), lighttpd \(row.2)") }
        }
        if workloads.contains(.cluster) {
            say("cluster: backups against rclone; the load run through HAProxy, one shard and three")
            var cluster = ClusterBenchmark(bench: bench)
            cluster.backupUsers = backupUsers
            cluster.loadUsers = loadUsers
            report.backups = try cluster.backups()
            for row in report.backups { say("  \(row.0): cairn \(row.1), rclone \(row.2)") }
            report.shards = try cluster.load()
            for row in report.shards { say("  \(row.0): 1 shard \(row.1), 3 shards \(row.2)") }
        }
        if workloads.contains(.history) {
            say("history of \(checkpoints.formatted()) checkpoints")
            report.history = try HistoryFigures(bench: bench, checkpoints: checkpoints).run()
            report.historyCheckpoints = checkpoints
        }
        if bench.generated == nil {
            report.notes = Explanations.notes
            Explanations.annotate(&report)
        } else {
            // The reasons beside missed targets were measured on the project's documents.
            report.notes = Explanations.drawnNotes(set: bench.schemaSet.name)
        }
        let markdown = report.markdown
        say("")
        say(markdown)
        // A run on another set's documents leaves the project's table as it is unless told.
        if let output = output ?? (schema == nil ? "BENCHMARKS.md" : nil), output != "-" {
            // A device or a pipe (/dev/stdout, /dev/null) is written into, never replaced.
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: output, isDirectory: &isFolder)
            let type = exists ? (try? FileManager.default.attributesOfItem(atPath: output)[.type] as? FileAttributeType) ?? nil : nil
            if exists, type != .typeRegular {
                guard let handle = FileHandle(forWritingAtPath: output) else {
                    throw ValidationError("cannot write the table to \(output)")
                }
                try handle.write(contentsOf: Data(markdown.utf8))
                try handle.close()
            } else {
                try markdown.write(toFile: output, atomically: true, encoding: .utf8)
            }
            say("Written to \(output)")
        }
    }
}

/// Prints a line at once, unbuffered, so a long run shows its progress when its output goes
/// to a file.
func say(_ text: String) {
    let bytes = Array((text + "\n").utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        if count <= 0 { return }
        written += count
    }
}
