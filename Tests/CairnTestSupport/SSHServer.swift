#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A real SSH server on 127.0.0.1 for tests: sshd in the foreground with a fresh host key,
/// accepting only a fresh user key (for root, so a git URL reaches any path), and an ssh-agent
/// of its own holding that key. Clients get a home whose `~/.ssh/known_hosts` lists the host
/// key and the agent's socket through `environment`. Needs openssh-server and openssh-client
/// (scripts/install-deps.sh installs them).
public final class SSHServer: Sendable {
    /// Why the server or its agent could not start; the description includes their logs.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    public let port: Int
    /// The PID of sshd.
    public let pid: Int32
    /// The PID of the ssh-agent.
    public let agentPID: Int32
    /// The ssh-agent's socket (`SSH_AUTH_SOCK`).
    public let agentSocket: String
    private let agent: Process
    private let folder: TemporaryFolder
    private let stopping = NSLock()

    static let sshd = "/usr/sbin/sshd"
    static let sshKeygen = "/usr/bin/ssh-keygen"
    static let sshAgent = "/usr/bin/ssh-agent"
    static let sshAdd = "/usr/bin/ssh-add"

    /// Makes the keys, starts sshd on a free port of 127.0.0.1 and waits until it accepts
    /// connections, then starts the agent and, if `agentHoldsKey`, adds the user key to it
    /// (without it the agent is empty, so clients have nothing to offer).
    public init(agentHoldsKey: Bool = true) throws {
        let folder = TemporaryFolder("cairn-ssh")
        let paths = Paths(folder: folder.path)
        guard paths.agentSocket.utf8.count < 100 else {
            throw StartError(description: "SSHServer: the agent socket path \(paths.agentSocket) is too long for a Unix socket")
        }
        let files = FileManager.default
        try files.createDirectory(atPath: paths.home + "/.ssh", withIntermediateDirectories: true)
        try files.createDirectory(atPath: paths.homeWithoutKnownHosts + "/.ssh", withIntermediateDirectories: true)
        try Self.makeKey(paths.hostKey)
        try Self.makeKey(paths.userKey)
        try files.copyItem(atPath: paths.userKey + ".pub", toPath: paths.authorizedKeys)
        chmod(paths.authorizedKeys, 0o600)
        // sshd's privilege separation folder, which it refuses to start without.
        try files.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true,
                                  attributes: [.posixPermissions: 0o755])

        var tries = 0
        var launched: (port: Int, pid: pid_t)?
        while launched == nil {
            tries += 1
            let port = try Loopback.freePort()
            try Self.configuration(paths: paths, port: port).write(toFile: paths.configuration, atomically: false, encoding: .utf8)
            launched = try Self.launchServer(paths: paths, port: port, lastTry: tries == 5).map { (port, $0) }
        }
        let (port, server) = launched!
        let agent: Process
        do {
            agent = try Self.launchAgent(paths: paths)
        } catch {
            Self.terminate(server)
            throw error
        }
        do {
            if agentHoldsKey {
                let added = try runProcess(Self.sshAdd, [paths.userKey], environment: ["SSH_AUTH_SOCK": paths.agentSocket])
                guard added.status == 0 else {
                    throw StartError(description: "SSHServer: ssh-add failed (status \(added.status)): \(added.stderr)\n\(paths.log)")
                }
            }
            let hostKey = try String(contentsOfFile: paths.hostKey + ".pub", encoding: .utf8)
            let fields = hostKey.split(separator: " ")
            guard fields.count >= 2 else {
                throw StartError(description: "SSHServer: cannot read the host key \(hostKey.debugDescription)")
            }
            try "[127.0.0.1]:\(port) \(fields[0]) \(fields[1])\n"
                .write(toFile: paths.home + "/.ssh/known_hosts", atomically: false, encoding: .utf8)
        } catch {
            Loopback.terminate(agent)
            Self.terminate(server)
            throw error
        }
        self.port = port
        self.pid = server
        self.agentPID = agent.processIdentifier
        self.agentSocket = paths.agentSocket
        self.agent = agent
        self.folder = folder
    }

    deinit {
        stop()
    }

    /// `ssh://root@127.0.0.1:<port><path>`; `path` is absolute.
    public func url(path: String) -> String {
        "ssh://root@127.0.0.1:\(port)\(path)"
    }

    /// For a client: `HOME` a folder whose `.ssh/known_hosts` lists this server's host key, and
    /// `SSH_AUTH_SOCK` the agent's socket.
    public var environment: [String: String] {
        environment(knownHosts: true)
    }

    /// For a client: `SSH_AUTH_SOCK` the agent's socket, and `HOME` a folder whose
    /// `.ssh/known_hosts` lists this server's host key (`knownHosts`) or which has no
    /// known_hosts at all (an unknown host).
    public func environment(knownHosts: Bool) -> [String: String] {
        let paths = Paths(folder: folder.path)
        return ["HOME": knownHosts ? paths.home : paths.homeWithoutKnownHosts, "SSH_AUTH_SOCK": paths.agentSocket]
    }

    /// Stops sshd and the agent by their PIDs (SIGTERM, wait, then SIGKILL if still alive after
    /// 5 s). Idempotent; also called from deinit.
    public func stop() {
        stopping.lock()
        defer { stopping.unlock() }
        Self.terminate(pid)
        Loopback.terminate(agent)
    }

    /// What sshd logged, then what the agent printed (for test failure messages).
    public var log: String {
        Paths(folder: folder.path).log
    }

    /// The sshd configuration: this folder's keys only, public keys only, 127.0.0.1 only.
    static func configuration(paths: Paths, port: Int) -> String {
        """
        Port \(port)
        ListenAddress 127.0.0.1
        HostKey \(paths.hostKey)
        PidFile \(paths.pidFile)
        AuthorizedKeysFile \(paths.authorizedKeys)
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
    }

    /// Where the server's files live in its folder.
    struct Paths {
        var folder: String
        var configuration: String { folder + "/sshd_config" }
        var hostKey: String { folder + "/hostkey" }
        var userKey: String { folder + "/userkey" }
        var authorizedKeys: String { folder + "/authorized_keys" }
        var pidFile: String { folder + "/sshd.pid" }
        var serverLog: String { folder + "/sshd.log" }
        var agentLog: String { folder + "/agent.log" }
        var agentSocket: String { folder + "/agent.sock" }
        var home: String { folder + "/home" }
        var homeWithoutKnownHosts: String { folder + "/home-without-known-hosts" }

        var log: String {
            let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
            let agent = read(agentLog)
            return read(serverLog) + (agent.isEmpty ? "" : "ssh-agent output:\n" + agent)
        }
    }

    /// An ed25519 key without passphrase at `path` (and `path.pub`).
    private static func makeKey(_ path: String) throws {
        let made = try runProcess(sshKeygen, ["-q", "-t", "ed25519", "-N", "", "-C", "cairn-test", "-f", path])
        guard made.status == 0 else {
            throw StartError(description: "SSHServer: ssh-keygen failed (status \(made.status)): \(made.stderr)")
        }
    }

    /// Runs sshd in the foreground (stdin /dev/null, output to its log) and waits until it
    /// accepts connections; nil when another program took the port first (and this is not the
    /// last try). sshd closes every descriptor it inherits, Foundation's watch on its children
    /// too, after which `Process` would block its one monitoring thread in `waitpid` until sshd
    /// ends: so sshd is spawned directly and reaped here.
    private static func launchServer(paths: Paths, port: Int, lastTry: Bool) throws -> pid_t? {
        let pid = try spawn(sshd, ["-D", "-e", "-f", paths.configuration], log: paths.serverLog)
        let deadline = Date() + 10
        while true {
            if let status = exitStatus(pid) {
                let log = paths.log
                if log.contains("Address already in use") && !lastTry {
                    return nil
                }
                throw StartError(description: "SSHServer: sshd exited (status \(status)) on port \(port):\n\(log)")
            }
            // "Server listening" is logged once sshd has bound its port, so a connection is to it.
            if paths.log.contains("Server listening on"), Loopback.canConnect(port: port) {
                return pid
            }
            if Date() >= deadline {
                terminate(pid)
                throw StartError(description: "SSHServer: sshd did not accept connections on port \(port) within 10 s:\n\(paths.log)")
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
            throw StartError(description: "SSHServer: cannot open \(log): \(String(cString: strerror(errno)))")
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
            throw StartError(description: "SSHServer: cannot run \(executable): \(String(cString: strerror(failed)))")
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

    /// Runs `executable` in the foreground with stdin from /dev/null and its output to `log`.
    private static func start(_ executable: String, _ arguments: [String], log: String) throws -> Process {
        let logURL = URL(fileURLWithPath: log)
        try Data().write(to: logURL)
        let output = try FileHandle(forWritingTo: logURL)
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        // The child inherits the starting thread's signal mask (Process keeps it), and the test
        // runner's threads block SIGTERM: unblocked while it starts, so stop() ends it at once.
        var term = sigset_t()
        var previous = sigset_t()
        sigemptyset(&term)
        sigaddset(&term, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &term, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
        return process
    }

    /// Runs ssh-agent on this folder's socket and waits (at most 10 s) until the socket exists.
    private static func launchAgent(paths: Paths) throws -> Process {
        let process = try start(sshAgent, ["-D", "-a", paths.agentSocket], log: paths.agentLog)
        let deadline = Date() + 10
        while !FileManager.default.fileExists(atPath: paths.agentSocket) {
            if !process.isRunning {
                process.waitUntilExit()
                throw StartError(description: "SSHServer: ssh-agent exited (status \(process.terminationStatus)):\n\(paths.log)")
            }
            if Date() >= deadline {
                Loopback.terminate(process)
                throw StartError(description: "SSHServer: ssh-agent made no socket within 10 s:\n\(paths.log)")
            }
            usleep(20_000)
        }
        return process
    }

}
