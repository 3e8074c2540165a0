#if canImport(Glibc)
import Glibc
#endif

/// What decides, besides the remote's address, how Cairn reaches an SSH remote — the same
/// things that decide it for ssh and git: the home (its `.ssh/config` and default keys), the
/// local user, the agent's socket, and the ssh command git would run (`GIT_SSH_COMMAND` or
/// `core.sshCommand`).
public struct SSHEnvironment: Sendable, Hashable {
    /// The home folder (`HOME`): `~` in paths.
    public var home: String
    /// The local user's name: the remote user when nothing names one, and `%u` in paths.
    public var localUser: String
    /// The ssh-agent's socket (`SSH_AUTH_SOCK`); nil when no agent runs.
    public var agentSocket: String?
    /// The ssh command git would run; nil for plain ssh.
    public var command: String?
    /// Where ``command`` came from, for messages: `GIT_SSH_COMMAND` or `core.sshCommand`.
    public var commandSource: String
    /// The user's configuration file (`~/.ssh/config`).
    public var userConfig: String
    /// The system's configuration file, read after the user's.
    public var systemConfig: String = "/etc/ssh/ssh_config"

    public init(
        home: String, localUser: String, agentSocket: String?, command: String? = nil,
        commandSource: String = "core.sshCommand"
    ) {
        self.home = home
        self.localUser = localUser
        self.agentSocket = agentSocket?.isEmpty == false ? agentSocket : nil
        self.command = command?.isEmpty == false ? command : nil
        self.commandSource = commandSource
        self.userConfig = home + "/.ssh/config"
    }

    /// The environment of this process: `HOME`, `USER` (else the account's name),
    /// `SSH_AUTH_SOCK`, and `GIT_SSH_COMMAND`, else `configuredCommand` (the value of
    /// `core.sshCommand` in git's configuration), as git picks between them.
    public static func current(configuredCommand: String? = nil) -> SSHEnvironment {
        let variable = { (name: String) in getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        let account = getpwuid(getuid())?.pointee
        let home = variable("HOME") ?? account.map { String(cString: $0.pw_dir) } ?? "/"
        let user = variable("USER") ?? account.map { String(cString: $0.pw_name) } ?? "root"
        if let command = variable("GIT_SSH_COMMAND") {
            return SSHEnvironment(
                home: home, localUser: user, agentSocket: variable("SSH_AUTH_SOCK"),
                command: command, commandSource: "GIT_SSH_COMMAND")
        }
        return SSHEnvironment(home: home, localUser: user, agentSocket: variable("SSH_AUTH_SOCK"), command: configuredCommand)
    }
}
