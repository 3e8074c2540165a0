import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program that talks to a remote, to its end, in a clean environment: the test's own
/// minus Cairn's settings and credentials and anything named in `removing`, with network
/// retries off and git never prompting, plus `environment`. Its output goes through files
/// (never a pipe that could fill), and it is killed by its PID after `limit` seconds, so a
/// hung transfer fails its test instead of stalling the suite (the kill is noted on stderr).
public func runBounded(
    _ executable: String, _ arguments: [String], input: String? = nil,
    environment: [String: String] = [:], removing: [String] = [],
    limit: TimeInterval = 30
) throws -> ProcessResult {
    let folder = TemporaryFolder("cairn-run", keptForTheTest: false)
    let paths = (input: folder.path + "/stdin", output: folder.path + "/stdout", error: folder.path + "/stderr")
    try Data((input ?? "").utf8).write(to: URL(fileURLWithPath: paths.input))
    try Data().write(to: URL(fileURLWithPath: paths.output))
    try Data().write(to: URL(fileURLWithPath: paths.error))
    let stdin = try FileHandle(forReadingFrom: URL(fileURLWithPath: paths.input))
    let stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: paths.output))
    let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: paths.error))
    defer {
        try? stdin.close()
        try? stdout.close()
        try? stderr.close()
    }
    var variables = ProcessInfo.processInfo.environment
    for name in ["CAIRN_USERNAME", "CAIRN_PASSWORD", "CAIRN_HOME", "CAIRN_LOG"] + removing {
        variables[name] = nil
    }
    variables["CAIRN_SYNC_RETRY"] = "none"
    variables["GIT_TERMINAL_PROMPT"] = "0"
    variables.merge(environment) { $1 }

    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = variables
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    let deadline = Date() + limit
    while process.isRunning, Date() < deadline {
        usleep(2_000)
    }
    let killed = process.isRunning
    if killed {
        process.send(SIGKILL)
    }
    process.waitUntilExit()
    let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
    let said =
        read(paths.error) + (killed ? "\n[killed after \(Int(limit)) s: \(([executable] + arguments).joined(separator: " "))]\n" : "")
    return ProcessResult(status: process.terminationStatus, stdout: read(paths.output), stderr: said)
}
