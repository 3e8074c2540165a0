import CairnTestSupport
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// `cairn server run` (or `cairn server auth`) on free ports of 127.0.0.1 for a test, as an
/// operator starts it: its repositories in `folder`, the tokens of `provider` trusted, its
/// log on stderr kept in a file. Stopped by its PID (SIGTERM, then SIGKILL after 10 s).
package final class ServedFront: @unchecked Sendable {
    package let folder: String
    package let port: Int
    package let metricsPort: Int
    package let process: ChildProcess
    private let logs: TemporaryFolder
    private var logFile: String { logs.path + "/stderr" }
    private var outputFile: String { logs.path + "/stdout" }

    /// Starts it with `arguments` after the identity options (`--max-backends 1`, …), on
    /// `port` and `metricsPort` (0: free ones, as it starts again after a crash); waits
    /// (at most 30 s) for the line that says where it serves. `keySet`: the provider's key set
    /// file, or its URL.
    package init(
        folder: String, provider: IdentityProvider, keySet: String? = nil, role: String = "run",
        arguments: [String] = [], environment: [String: String] = [:], port: Int = 0, metricsPort: Int = 0
    ) throws {
        self.folder = folder
        let logs = TemporaryFolder("cairn-front-logs")
        self.logs = logs
        let (logFile, outputFile) = (logs.path + "/stderr", logs.path + "/stdout")
        try Data().write(to: URL(fileURLWithPath: logFile))
        try Data().write(to: URL(fileURLWithPath: outputFile))
        process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.arguments =
            [
                "server", role, folder, "--issuer", provider.issuer, "--audience", provider.audience,
                "--jwks", keySet ?? provider.keySetFile, "--listen", "127.0.0.1:\(port)", "--metrics", "127.0.0.1:\(metricsPort)",
            ] + arguments
        var variables = ProcessInfo.processInfo.environment
        variables["CAIRN_LOG"] = nil
        process.environment = variables.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputFile))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        try process.run()
        var said = ""
        let deadline = Date() + 30
        while Date() < deadline, process.isRunning, !said.contains("\n") {
            usleep(20_000)
            said = (try? String(contentsOfFile: outputFile, encoding: .utf8)) ?? ""
        }
        let ports = said.matches(of: /127\.0\.0\.1:([0-9]+)/).compactMap { Int($0.output.1) }
        guard ports.count == 2 else {
            Loopback.terminate(process)
            throw GitServerStartError(
                description:
                    "cairn server \(role) did not say where it serves: \(said)\((try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "")"
            )
        }
        (self.port, self.metricsPort) = (ports[0], ports[1])
    }

    deinit {
        stop()
    }

    /// Stops it as an operator would (SIGTERM), and waits (at most 10 s, then SIGKILL).
    package func stop() {
        guard process.isRunning else { return }
        process.send(SIGTERM)
        let deadline = Date() + 10
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { process.send(SIGKILL) }
        process.waitUntilExit()
    }

    /// The URL of `uid`'s repository (with the user name, as a device keeps it).
    package func url(_ uid: String, scheme: String = "http") -> String {
        "\(scheme)://\(uid)@127.0.0.1:\(port)/git/\(uid).git"
    }

    /// What the server wrote on stderr: its log, one line per request.
    package var log: String { (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? "" }

    /// The log lines of requests (`… [CairnFront] request`).
    package var requestLines: [String] { log.split(separator: "\n").map(String.init).filter { $0.hasSuffix(" request") } }

    /// `/metrics`, as Prometheus scrapes it.
    package func metrics() throws -> String {
        try runBounded("/usr/bin/curl", ["-s", "--max-time", "10", "http://127.0.0.1:\(metricsPort)/metrics"]).stdout
    }
}
