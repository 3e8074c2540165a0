import ArgumentParser
import CairnCommandLine
import CairnCore

#if canImport(Glibc)
import Glibc
#endif

/// The options of the commands that talk to a remote: quiet or not, and the retry schedule
/// (else `CAIRN_SYNC_RETRY`); the network timeout comes from `CAIRN_NETWORK_TIMEOUT`.
struct TransferOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Print no progress (progress shows only on a terminal anyway).")
    var quiet = false

    @Option(
        help: ArgumentHelp(
            "Pauses in seconds before retrying after a network failure, like 5,30,300, or none (default: $CAIRN_SYNC_RETRY, else 5,30,300).",
            valueName: "seconds"))
    var retry: String?

    /// Sync options with this command's progress and retries, and the ID token to present
    /// to a server that takes tokens: `CAIRN_TOKEN`, else what `tokenCommand` prints.
    func syncOptions(tokenCommand: String? = nil) throws -> SyncOptions {
        let environment = Environment.current
        let schedule: RetrySchedule
        if let retry {
            schedule = try RetrySchedule(parsing: retry)
        } else {
            schedule = try environment.syncRetry()
        }
        var options = SyncOptions(retry: schedule, networkTimeout: try environment.networkTimeout())
        options.token = environment.token.map(TokenProvider.fixed) ?? tokenCommand.map(TokenCommand.provider)
        guard !quiet, isatty(2) == 1 else { return options }
        let meter = ProgressMeter()
        let retries = schedule.delays.count
        options.progress = { step in meter.show(step) }
        options.willRetry = { error, pause, retry in
            meter.finishLine()
            Output.error("cairn: \(error.commandLineMessage); trying again in \(RetrySchedule([pause])) s (retry \(retry) of \(retries))\n")
        }
        return options
    }
}

/// Transfer progress on one terminal line, rewritten in place (`Receiving objects: 40% (8/20), 3.1 KiB`).
///
/// Unchecked `Sendable`: libgit2 calls progress handlers on the thread that runs the fetch or
/// push, and a command runs one at a time, so the line state is never touched concurrently.
final class ProgressMeter: @unchecked Sendable {
    private var open = false
    private var shown = ""

    func show(_ step: TransferProgress) {
        let verb = step.direction == .receiving ? "Receiving" : "Sending"
        let percent = step.totalObjects > 0 ? "\(step.objects * 100 / step.totalObjects)% " : ""
        let line = "\(verb) objects: \(percent)(\(step.objects)/\(step.totalObjects)), \(Self.size(step.bytes))"
        guard line != shown else { return }
        shown = line
        Output.error("\r" + line + "\u{1B}[K")
        open = true
        // The last step of a transfer ends the line, so what follows starts clean.
        if step.totalObjects > 0, step.objects == step.totalObjects { finishLine() }
    }

    /// Ends the progress line, if one is open.
    func finishLine() {
        if open { Output.error("\n") }
        open = false
    }

    deinit { finishLine() }

    static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        let (unit, scale) = bytes < 1 << 20 ? ("KiB", 1024) : ("MiB", 1 << 20)
        let tenths = bytes * 10 / scale
        return "\(tenths / 10).\(tenths % 10) \(unit)"
    }
}
