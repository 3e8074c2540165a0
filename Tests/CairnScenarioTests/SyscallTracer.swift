import CairnTestSupport
import Foundation

/// Runs a program under `strace`: once to count the file-system calls it makes, then again
/// with one of those calls turned into a `SIGKILL` or an error (`-e inject=…:when=k`).
///
/// strace counts the calls of each kind per process (per thread, in fact), from 1; the tool
/// makes its writes from one thread, so "the k-th `fsync`" names one moment of a run.
enum SyscallTracer {
    /// Where Debian installs strace (`scripts/install-deps.sh --tests`).
    static let executable = "/usr/bin/strace"

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// The calls that change files, counted and injected into.
    static let kinds = [
        "write", "pwrite64", "fsync", "fdatasync", "rename", "renameat", "renameat2",
        "unlink", "unlinkat", "ftruncate", "mkdir", "mkdirat", "link", "linkat", "syncfs",
    ]

    /// What to do to the `occurrence`-th call of `call` (counted from 1).
    struct Fault: Sendable, CustomStringConvertible {
        var call: String
        var occurrence: Int
        /// nil: kill the process as it enters the call; else the call fails with this errno name.
        var error: String?

        var description: String { "\(call) #\(occurrence)" + (error.map { " \($0)" } ?? " SIGKILL") }

        var injection: String {
            "inject=\(call):" + (error.map { "error=\($0)" } ?? "signal=SIGKILL") + ":when=\(occurrence)"
        }
    }

    /// How a traced run ended.
    struct Outcome: Sendable {
        var status: Int32
        /// The program died of `SIGKILL` (so did strace, which ends as its program does).
        var killed: Bool
        /// strace injected the fault (its trace marks the call `(INJECTED)`).
        var injected: Bool
        var stdout: String
        var stderr: String
    }

    /// The calls of each kind a run made, in order: the text of each call's first argument
    /// (the file descriptor of a `write`, the path of a `rename`).
    typealias Calls = [String: [String]]

    /// Runs the program with `fault`, or plainly (traced, to count) without one.
    static func run(
        _ program: String, _ arguments: [String], input: String?, environment: [String: String],
        fault: Fault?, trace: String
    ) throws -> Outcome {
        let traced = fault.map { [$0.call] } ?? kinds
        var options = ["-f", "-qq", "-o", trace, "-e", "trace=" + traced.joined(separator: ",")]
        if let fault { options += ["-e", fault.injection] }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: FaultSite.nice)
        process.arguments = ["-n", "10", executable] + options + [program] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdout = Pipe()
        let stderr = Pipe()
        let stdin = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = stdin
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        try? stdin.fileHandleForWriting.write(contentsOf: Data((input ?? "").utf8))
        try? stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let traceText = (try? String(contentsOfFile: trace, encoding: .utf8)) ?? ""
        return Outcome(
            status: process.terminationStatus,
            killed: process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL,
            injected: traceText.contains("(INJECTED)"),
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// The calls a trace written by ``run(_:_:input:environment:fault:trace:)`` shows, those of
    /// the process that made the most of each kind. A call split by another thread's
    /// (`<unfinished …>`, then `<… resumed>`) counts once, on its first line.
    static func calls(inTrace trace: String) throws -> Calls {
        var byProcess: [String: Calls] = [:]
        for line in try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n") {
            // "1234  write(2, "…", 10) = 10"
            guard let space = line.firstIndex(of: " "), let paren = line[space...].firstIndex(of: "(") else { continue }
            let name = line[space..<paren].trimmingCharacters(in: .whitespaces)
            guard kinds.contains(name) else { continue }
            let rest = line[line.index(after: paren)...]
            let first = rest.prefix { $0 != "," && $0 != ")" }
            byProcess[String(line[..<space]), default: [:]][name, default: []].append(String(first))
        }
        var result: Calls = [:]
        for calls in byProcess.values {
            for (name, list) in calls where list.count > result[name]?.count ?? 0 {
                result[name] = list
            }
        }
        return result
    }
}
