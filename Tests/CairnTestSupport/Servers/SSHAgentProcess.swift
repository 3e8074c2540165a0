import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An ssh-agent of a test's own on a socket in a temporary folder, holding the keys it is
/// given in the order given, started and stopped by its PID. Needs openssh-client.
public final class SSHAgentProcess: Sendable {
    /// Why the agent could not start or take a key; the description includes its output.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The agent's socket (`SSH_AUTH_SOCK`).
    public let socket: String
    /// The PID of ssh-agent.
    public let pid: Int32
    private let process: ChildProcess
    private let folder: TemporaryFolder
    private let stopping = NSLock()

    static let sshAgent = "/usr/bin/ssh-agent"
    static let sshAdd = "/usr/bin/ssh-add"

    /// Starts the agent and adds `keys` (private key files without passphrase), in order.
    public init(keys: [String] = []) throws {
        let folder = TemporaryFolder("cairn-agent")
        let socket = folder.path + "/agent.sock"
        let log = folder.path + "/agent.log"
        guard socket.utf8.count < 100 else {
            throw StartError(description: "SSHAgentProcess: the socket path \(socket) is too long for a Unix socket")
        }
        let process = try Loopback.start(Self.sshAgent, ["-D", "-a", socket], console: log)
        let deadline = Date() + 10
        // The socket's file exists once the agent bound it, a moment before it listens.
        while !Self.accepts(socket) {
            if !process.isRunning {
                process.waitUntilExit()
                throw StartError(
                    description:
                        "SSHAgentProcess: ssh-agent exited (status \(process.terminationStatus)):\n\((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")"
                )
            }
            if Date() >= deadline {
                Loopback.terminate(process)
                throw StartError(description: "SSHAgentProcess: ssh-agent did not accept connections within 10 s")
            }
            usleep(20_000)
        }
        self.socket = socket
        self.pid = process.processIdentifier
        self.process = process
        self.folder = folder
        do {
            for key in keys { try add(key) }
        } catch {
            stop()
            throw error
        }
    }

    deinit {
        stop()
    }

    /// Adds the private key at `path` (without passphrase) after the keys the agent holds.
    public func add(_ path: String) throws {
        let added = try runProcess(Self.sshAdd, ["-q", path], environment: ["SSH_AUTH_SOCK": socket])
        guard added.status == 0 else {
            throw StartError(description: "SSHAgentProcess: ssh-add \(path) failed (status \(added.status)): \(added.stderr)")
        }
    }

    /// Stops the agent by its PID (SIGTERM, then SIGKILL after 5 s). Idempotent.
    public func stop() {
        stopping.lock()
        defer { stopping.unlock() }
        Loopback.terminate(process)
    }

    /// Whether a connection to the Unix socket at `path` is accepted.
    private static func accepts(_ path: String) -> Bool {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes.prefix(buffer.count - 1))
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }
}
