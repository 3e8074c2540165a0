import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real SSH server on 127.0.0.1 for tests: sshd in the foreground with a fresh host key,
/// accepting only a fresh user key (for root, so a git URL reaches any path), and an ssh-agent
/// of its own. The agent holds, in order, `strangerKeys` keys the server does not accept, then
/// the user key (unless told not to). Clients get a home whose `~/.ssh/known_hosts` lists the
/// host key and the agent's socket through `environment`. Needs openssh-server and
/// openssh-client (scripts/install-deps.sh --tests installs them).
public final class SSHServer: Sendable {
    public var port: Int { daemon.port }
    /// The PID of sshd.
    public var pid: Int32 { daemon.pid }
    /// The PID of the ssh-agent.
    public var agentPID: Int32 { agent.pid }
    /// The ssh-agent's socket (`SSH_AUTH_SOCK`).
    public var agentSocket: String { agent.socket }
    /// The private key the server accepts (no passphrase; `.pub` beside it).
    public let userKey: String
    /// Keys the server does not accept, in the agent before the user key.
    public let strangerKeys: [String]
    private let daemon: SSHDaemon
    private let agent: SSHAgentProcess
    private let folder: TemporaryFolder

    /// Makes the keys, starts sshd and waits until it accepts connections, then starts the
    /// agent with `strangerKeys` keys the server refuses and, if `agentHoldsKey`, the user key
    /// after them (without either the agent is empty, so clients have nothing to offer).
    public init(agentHoldsKey: Bool = true, strangerKeys: Int = 0) throws {
        let folder = TemporaryFolder("cairn-ssh")
        let paths = Paths(folder: folder.path)
        let files = FileManager.default
        try files.createDirectory(atPath: paths.home + "/.ssh", withIntermediateDirectories: true)
        try files.createDirectory(atPath: paths.homeWithoutKnownHosts + "/.ssh", withIntermediateDirectories: true)
        try files.createDirectory(atPath: paths.keys, withIntermediateDirectories: true)
        try SSHDaemon.makeKey(paths.userKey, comment: "user")
        try files.copyItem(atPath: paths.userKey + ".pub", toPath: paths.authorizedKeys)
        chmod(paths.authorizedKeys, 0o600)
        let strangers = (0..<strangerKeys).map { paths.keys + "/stranger\($0 + 1)" }
        for (number, key) in strangers.enumerated() {
            try SSHDaemon.makeKey(key, comment: "stranger\(number + 1)")
        }
        let daemon = try SSHDaemon(folder: folder.path, settings: Self.configuration(paths: paths))
        do {
            agent = try SSHAgentProcess(keys: strangers + (agentHoldsKey ? [paths.userKey] : []))
            try daemon.knownHostsLine.write(toFile: paths.home + "/.ssh/known_hosts", atomically: false, encoding: .utf8)
        } catch {
            daemon.stop()
            throw error
        }
        self.daemon = daemon
        self.userKey = paths.userKey
        self.strangerKeys = strangers
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

    /// The client's home of ``environment``: its `.ssh/config` is the tests' to write.
    public var home: String {
        Paths(folder: folder.path).home
    }

    /// For a client: `SSH_AUTH_SOCK` the agent's socket, and `HOME` a folder whose
    /// `.ssh/known_hosts` lists this server's host key (`knownHosts`) or which has no
    /// known_hosts at all (an unknown host).
    public func environment(knownHosts: Bool) -> [String: String] {
        let paths = Paths(folder: folder.path)
        return ["HOME": knownHosts ? paths.home : paths.homeWithoutKnownHosts, "SSH_AUTH_SOCK": agent.socket]
    }

    /// Stops sshd and the agent by their PIDs (SIGTERM, wait, then SIGKILL if still alive after
    /// 5 s). Idempotent; also called from deinit.
    public func stop() {
        daemon.stop()
        agent.stop()
    }

    /// What sshd logged (for test failure messages).
    public var log: String {
        daemon.log
    }

    /// The sshd settings: this folder's user key only, public keys only, root only.
    static func configuration(paths: Paths) -> String {
        "AuthorizedKeysFile \(paths.authorizedKeys)\n" + SSHDaemon.publicKeysOnly
    }

    /// Where the server's files live in its folder.
    struct Paths {
        var folder: String
        var userKey: String { folder + "/userkey" }
        var keys: String { folder + "/keys" }
        var authorizedKeys: String { folder + "/authorized_keys" }
        var home: String { folder + "/home" }
        var homeWithoutKnownHosts: String { folder + "/home-without-known-hosts" }
    }
}
