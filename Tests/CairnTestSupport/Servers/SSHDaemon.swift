import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// sshd in the foreground on a free port of 127.0.0.1, started and stopped by its PID: what the
/// tests' SSH servers share (plain sshd in ``SSHServer``, gitolite behind it in
/// ``GitoliteServer``). Needs openssh-server (scripts/install-deps.sh --tests installs it).
public final class SSHDaemon: Sendable {
    /// Why sshd or a key could not be made; the description includes the logs.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    public let port: Int
    /// The PID of sshd.
    public let pid: Int32
    /// The host key's line for a client's `known_hosts` (`[127.0.0.1]:PORT TYPE KEY`).
    public let knownHostsLine: String
    private let logFile: String
    private let process: ChildProcess
    private let stopping = NSLock()

    /// The settings every test server shares: public keys only, for root, nothing else
    /// asked or looked up, each login logged with the key it took.
    public static let publicKeysOnly = """
        PubkeyAuthentication yes
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        UsePAM no
        StrictModes no
        PermitRootLogin prohibit-password
        UseDNS no
        PrintMotd no
        LogLevel VERBOSE

        """

    static let sshd = "/usr/sbin/sshd"
    static let sshKeygen = "/usr/bin/ssh-keygen"

    /// Makes a host key in `folder`, writes the configuration `settings` (the lines after the
    /// port, address, host key and PID file) and starts sshd on a free port, waiting until it
    /// accepts connections.
    public init(folder: String, settings: String) throws {
        let hostKey = folder + "/hostkey"
        let configuration = folder + "/sshd_config"
        let log = folder + "/sshd.log"
        try Self.makeKey(hostKey, comment: "cairn-test-host")
        // sshd's privilege separation folder, which it refuses to start without.
        try FileManager.default.createDirectory(
            atPath: "/run/sshd", withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o755])
        var tries = 0
        var launched: (port: Int, process: ChildProcess)?
        while launched == nil {
            tries += 1
            let port = try Loopback.freePort()
            let text = """
                Port \(port)
                ListenAddress 127.0.0.1
                HostKey \(hostKey)
                PidFile \(folder)/sshd.pid
                \(settings)
                """
            try text.write(toFile: configuration, atomically: false, encoding: .utf8)
            launched = try Self.launch(configuration: configuration, log: log, port: port, lastTry: tries == 5).map { (port, $0) }
        }
        let hostKeyText = try String(contentsOfFile: hostKey + ".pub", encoding: .utf8)
        let fields = hostKeyText.split(separator: " ")
        guard fields.count >= 2 else {
            Loopback.terminate(launched!.process)
            throw StartError(description: "SSHDaemon: cannot read the host key \(hostKeyText.debugDescription)")
        }
        port = launched!.port
        process = launched!.process
        pid = launched!.process.processIdentifier
        knownHostsLine = "[127.0.0.1]:\(port) \(fields[0]) \(fields[1])\n"
        logFile = log
    }

    deinit {
        stop()
    }

    /// Stops sshd by its PID (SIGTERM, wait, then SIGKILL if still alive after 5 s).
    /// Idempotent; also called from deinit.
    public func stop() {
        stopping.lock()
        defer { stopping.unlock() }
        Loopback.terminate(process)
    }

    /// What sshd logged (for test failure messages).
    public var log: String {
        (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
    }

    /// An ed25519 key without passphrase at `path` (and `path.pub`).
    public static func makeKey(_ path: String, comment: String = "cairn-test") throws {
        let made = try runProcess(sshKeygen, ["-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", path])
        guard made.status == 0 else {
            throw StartError(description: "ssh-keygen failed (status \(made.status)): \(made.stderr)")
        }
    }

    /// Runs sshd in the foreground (stdin /dev/null, output to its log) and waits until it
    /// accepts connections; nil when another program took the port first (and this is not the
    /// last try).
    private static func launch(configuration: String, log: String, port: Int, lastTry: Bool) throws -> ChildProcess? {
        let process = try Loopback.start(sshd, ["-D", "-e", "-f", configuration], console: log)
        let read = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        let deadline = Date() + 10
        while true {
            if !process.isRunning {
                if read().contains("Address already in use") && !lastTry {
                    return nil
                }
                throw StartError(description: "SSHDaemon: sshd exited (status \(process.terminationStatus)) on port \(port):\n\(read())")
            }
            // "Server listening" is logged once sshd has bound its port, so a connection is to it.
            if read().contains("Server listening on"), Loopback.canConnect(port: port) {
                return process
            }
            if Date() >= deadline {
                Loopback.terminate(process)
                throw StartError(description: "SSHDaemon: sshd did not accept connections on port \(port) within 10 s:\n\(read())")
            }
            usleep(20_000)
        }
    }
}
