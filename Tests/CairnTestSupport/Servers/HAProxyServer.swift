import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Debian's HAProxy (2.6) on a free port of 127.0.0.1 for a test, in front of whatever its
/// configuration's `frontend` and `backend` sections route to, with its runtime API (`stats
/// socket … level admin`) on another port, stopped by its PID. Needs haproxy
/// (scripts/install-deps.sh --tests installs it).
public final class HAProxyServer: @unchecked Sendable {
    public let port: Int
    /// The runtime API's port.
    public let statsPort: Int
    public let folder: TemporaryFolder
    private let process: ChildProcess

    static let path = "/usr/sbin/haproxy"

    /// Starts it with `sections` (its frontend and backends, `@PORT@` standing for the port it
    /// listens on) after a `global` and `defaults` of its own; waits (at most 30 s) until it
    /// accepts connections.
    public init(sections: String, errorFile503: String? = nil) throws {
        let folder = TemporaryFolder("cairn-haproxy")
        for tries in 1...5 {
            let (port, statsPort) = (try Loopback.freePort(), try Loopback.freePort())
            var configuration = """
                global
                    stats socket ipv4@127.0.0.1:\(statsPort) level admin
                    maxconn 2000
                defaults
                    mode http
                    timeout connect 2s
                    timeout client 60s
                    timeout server 60s

                """
            if let errorFile503 {
                let file = folder.path + "/503.http"
                try errorFile503.write(toFile: file, atomically: true, encoding: .utf8)
                configuration += "    errorfile 503 \(file)\n"
            }
            configuration += "\n" + sections.replacingOccurrences(of: "@PORT@", with: String(port)) + "\n"
            try configuration.write(toFile: folder.path + "/haproxy.cfg", atomically: true, encoding: .utf8)
            let process = try Loopback.start(Self.path, ["-W", "-f", folder.path + "/haproxy.cfg"], console: folder.path + "/console")
            let deadline = Date() + 30
            while process.isRunning, Date() < deadline, !Loopback.canConnect(port: port) { usleep(50_000) }
            if process.isRunning, Loopback.canConnect(port: port) {
                (self.port, self.statsPort, self.folder, self.process) = (port, statsPort, folder, process)
                return
            }
            Loopback.terminate(process)
            if tries == 5 {
                let said = (try? String(contentsOfFile: folder.path + "/console", encoding: .utf8)) ?? ""
                throw GitServerStartError(description: "HAProxyServer: haproxy did not start: \(said)")
            }
        }
        fatalError("unreachable")
    }

    deinit {
        Loopback.terminate(process)
    }

    /// The runtime API's answer to `command`.
    public func runtime(_ command: String) throws -> String {
        String(decoding: try Loopback.exchange(port: statsPort, Array((command + "\n").utf8)), as: UTF8.self)
    }
}
