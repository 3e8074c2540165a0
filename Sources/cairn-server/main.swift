import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

// The servers (`run` and `auth`) run their tasks on the event loops that carry their
// connections, not on a pool of threads of their own: a request then moves between the
// socket and its handler without waking another thread (6 context switches a request instead
// of 16, `perf stat` over 500 requests; its CPU changed little). This must happen before the
// first task starts. The other commands (backups, the shard map) keep
// the default pool, where a task that waits on a process blocks no connection.
if let role = CommandLine.arguments.dropFirst().first, ["run", "auth"].contains(role), !EventLoopExecutor.install() {
    // The server still works, on the default pool, at a higher cost per request.
    let line =
        "cairn-server: warning: tasks run on the default pool of threads, not on the event loops: another global executor was installed first\n"
    _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
}
await runCommand()

/// What `AsyncParsableCommand.main()` does, called from here so that the line above comes first.
func runCommand() async {
    do {
        var command = try await CairnServerTool.asyncParseAsRoot()
        guard var running = command as? any AsyncParsableCommand else { return try command.run() }
        try await running.run()
    } catch {
        CairnServerTool.exit(withError: error)
    }
}
