#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// sshd in the foreground on a free port of 127.0.0.1, started and stopped by its PID: what the
/// tests' SSH servers share (plain sshd in ``SSHServer``, gitolite behind it in
/// ``GitoliteServer``). Needs openssh-server (scripts/install-deps.sh installs it).
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
        try FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        var tries = 0
        var launched: (port: Int, pid: pid_t)?
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
            Self.terminate(launched!.pid)
            throw StartError(description: "SSHDaemon: cannot read the host key \(hostKeyText.debugDescription)")
        }
        port = launched!.port
        pid = launched!.pid
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
        Self.terminate(pid)
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
    /// last try). sshd closes every descriptor it inherits, Foundation's watch on its children
    /// too, after which `Process` would block its one monitoring thread in `waitpid` until sshd
    /// ends: so sshd is spawned directly and reaped here.
    private static func launch(configuration: String, log: String, port: Int, lastTry: Bool) throws -> pid_t? {
        let pid = try spawn(sshd, ["-D", "-e", "-f", configuration], log: log)
        let read = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        let deadline = Date() + 10
        while true {
            if let status = exitStatus(pid) {
                if read().contains("Address already in use") && !lastTry {
                    return nil
                }
                throw StartError(description: "SSHDaemon: sshd exited (status \(status)) on port \(port):\n\(read())")
            }
            // "Server listening" is logged once sshd has bound its port, so a connection is to it.
            if read().contains("Server listening on"), Loopback.canConnect(port: port) {
                return pid
            }
            if Date() >= deadline {
                terminate(pid)
                throw StartError(description: "SSHDaemon: sshd did not accept connections on port \(port) within 10 s:\n\(read())")
            }
            usleep(20_000)
        }
    }

    /// Starts `executable` with posix_spawn: stdin /dev/null, stdout and stderr to `log`, no
    /// signal blocked (the test runner's threads block SIGTERM, and children inherit the mask)
    /// and SIGTERM, SIGINT, SIGHUP and SIGPIPE at their default action.
    private static func spawn(_ executable: String, _ arguments: [String], log: String) throws -> pid_t {
        let output = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            throw StartError(description: "SSHDaemon: cannot open \(log): \(String(cString: strerror(errno)))")
        }
        defer { close(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let failed = posix_spawn(&pid, executable, &actions, &attributes, argv + [nil], environ)
        guard failed == 0 else {
            throw StartError(description: "SSHDaemon: cannot run \(executable): \(String(cString: strerror(failed)))")
        }
        return pid
    }

    /// The exit status of the child `pid` once it has ended (reaping it), nil while it runs.
    /// A child already reaped counts as ended.
    private static func exitStatus(_ pid: pid_t) -> Int32? {
        var status: Int32 = 0
        var reaped = waitpid(pid, &status, WNOHANG)
        while reaped < 0, errno == EINTR {
            reaped = waitpid(pid, &status, WNOHANG)
        }
        if reaped == 0 {
            return nil
        }
        return reaped == pid ? status : -1
    }

    /// Ends the child `pid`: SIGTERM, then SIGKILL if it still runs after 5 s; reaps it.
    /// A signal goes only to a child not yet reaped, so never to a reused PID.
    private static func terminate(_ pid: pid_t) {
        guard exitStatus(pid) == nil else {
            return
        }
        kill(pid, SIGTERM)
        let deadline = Date() + 5
        while exitStatus(pid) == nil {
            if Date() >= deadline {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                return
            }
            usleep(20_000)
        }
    }
}
