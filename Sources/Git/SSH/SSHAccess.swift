#if canImport(Glibc)
import Glibc
#endif

/// How Cairn reaches one SSH remote, decided as ssh decides it: the host, port and user
/// `~/.ssh/config` gives for the address's host (after the options of `GIT_SSH_COMMAND` or
/// `core.sshCommand`), and the keys to offer in ssh's order — the agent's, only those of the
/// identity files when `IdentitiesOnly` is set, then the identity files themselves.
public struct SSHAccess: Sendable, Hashable {
    /// The address given to libgit2: the remote's path at the resolved host, port and user.
    public let url: String
    /// The host connected to (after `HostName`).
    public let host: String
    /// The port connected to.
    public let port: Int
    /// The user logged in as.
    public let user: String
    /// The keys to offer, in order.
    public let offers: [SSHKeyOffer]
    /// The agent that signs with the agent's keys; nil when none is used.
    public let agent: SSHAgent?
    /// What kept keys from being offered (no agent, an agent that did not answer, a key file
    /// locked by a passphrase, an identity file that does not exist), for messages.
    public let notes: [String]

    public init(url: String, host: String, port: Int, user: String, offers: [SSHKeyOffer], agent: SSHAgent?, notes: [String]) {
        self.url = url
        self.host = host
        self.port = port
        self.user = user
        self.offers = offers
        self.agent = agent
        self.notes = notes
    }

    /// The key files ssh tries when no `IdentityFile` names any (OpenSSH 9's list).
    static let defaultIdentityFiles = ["id_rsa", "id_ecdsa", "id_ecdsa_sk", "id_ed25519", "id_ed25519_sk", "id_xmss", "id_dsa"]

    /// Decides how to reach `address`: reads the configuration, the key files and the agent's
    /// list of keys. A configuration ssh would refuse is refused; an agent that cannot be
    /// reached only leaves its keys out (and says so in ``notes``).
    public static func resolve(_ address: SSHAddress, in environment: SSHEnvironment) throws(SSHConfigError) -> SSHAccess {
        let settings = try host(for: address, in: environment)
        let host = settings.hostName ?? address.host
        let port = settings.port ?? 22
        let user = settings.user ?? environment.localUser
        var notes: [String] = []
        var files: [SSHKeyFile] = []
        for path in settings.identityFiles {
            if let file = SSHKeyFile.read(path) {
                files.append(file)
                if file.isEncrypted {
                    notes.append("\(path) needs a passphrase (add it to the agent: ssh-add \(path))")
                } else if !file.hasPrivateKey {
                    notes.append("only \(path).pub is there (its key must be in the agent)")
                }
            } else if !settings.identityFiles.elementsEqual(defaultIdentityFiles.map { environment.home + "/.ssh/" + $0 }) {
                notes.append("\(path) does not exist")
            }
        }
        var agent: SSHAgent?
        var agentKeys: [SSHPublicKey] = []
        switch settings.identityAgent {
        case "none"?:
            notes.append("IdentityAgent none: no agent is used")
        case let socket? where socket != "SSH_AUTH_SOCK":
            agent = SSHAgent(socket: socket)
        default:
            agent = environment.agentSocket.map(SSHAgent.init(socket:))
            if agent == nil { notes.append("no ssh-agent runs: SSH_AUTH_SOCK is not set") }
        }
        if let reachable = agent {
            do {
                agentKeys = try reachable.keys()
                if agentKeys.isEmpty { notes.append("the ssh-agent holds no key") }
            } catch {
                notes.append(error.description)
                agent = nil
            }
        }
        let offers = SSHKeyOffer.inOrder(identityFiles: files, agentKeys: agentKeys, identitiesOnly: settings.identitiesOnly ?? false)
        return SSHAccess(
            url: address.url(host: host, user: user, port: port), host: host, port: port, user: user,
            offers: offers, agent: agent, notes: notes)
    }

    /// What the configuration says about `address`'s host, every value decided: `HostName`
    /// expanded, identity files expanded to paths (ssh's defaults when none is named), the
    /// agent's socket expanded. Options come, first value winning, from the ssh command's
    /// options, the address (its user and port), then `-F`'s file or else `~/.ssh/config`
    /// and `/etc/ssh/ssh_config`.
    public static func host(for address: SSHAddress, in environment: SSHEnvironment) throws(SSHConfigError) -> SSHHost {
        var settings = SSHHost()
        var configFiles = [(environment.userConfig, environment.home + "/.ssh", false), (environment.systemConfig, "/etc/ssh", false)]
        if let command = environment.command {
            let line = try SSHCommandLine(parsing: command, source: environment.commandSource)
            try line.options.apply(for: address.host, to: &settings)
            if let file = line.configFile {
                configFiles = [(try expand(file, [:], home: environment.home, what: "-F"), environment.home + "/.ssh", true)]
            }
        }
        // git passes the address's port with -p after the command's options: it wins.
        if let port = address.port { settings.port = port }
        if let user = address.user, settings.user == nil { settings.user = user }
        for (path, folder, required) in configFiles {
            guard let text = SSHFiles.text(path) else {
                if required { throw SSHConfigError("cannot read the ssh configuration \(path) named by -F") }
                continue
            }
            let config = try SSHConfig(parsing: text, source: path)
            try config.apply(for: address.host, to: &settings) { (pattern: String) throws(SSHConfigError) -> [SSHConfig] in
                let expanded = try expand(pattern, [:], home: environment.home, what: "Include")
                let absolute = expanded.hasPrefix("/") ? expanded : folder + "/" + expanded
                var included: [SSHConfig] = []
                for file in SSHFiles.glob(absolute) {
                    guard let text = SSHFiles.text(file) else { continue }
                    included.append(try SSHConfig(parsing: text, source: file))
                }
                return included
            }
        }
        let original = address.host
        let hostName = try expand(settings.hostName ?? original, ["h": original], home: nil, what: "HostName")
        let user = settings.user ?? environment.localUser
        let port = settings.port ?? 22
        var localHost = [UInt8](repeating: 0, count: 256)
        localHost.withUnsafeMutableBytes { _ = gethostname($0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1) }
        let fullLocalHost = String(decoding: localHost.prefix { $0 != 0 }, as: UTF8.self)
        let tokens: [Character: String] = [
            "d": environment.home, "u": environment.localUser, "h": hostName, "n": original,
            "p": String(port), "r": user, "i": String(getuid()), "L": fullLocalHost,
            "l": String(fullLocalHost.prefix { $0 != "." }),
        ]
        var resolved = SSHHost()
        resolved.hostName = hostName
        resolved.user = user
        resolved.port = port
        resolved.identitiesOnly = settings.identitiesOnly ?? false
        let named = settings.identityFiles.isEmpty ? defaultIdentityFiles.map { "~/.ssh/" + $0 } : settings.identityFiles
        for file in named {
            let path = try expand(file, tokens, home: environment.home, what: "IdentityFile")
            if !resolved.identityFiles.contains(path) { resolved.identityFiles.append(path) }
        }
        if let agent = settings.identityAgent {
            resolved.identityAgent =
                agent == "none" || agent == "SSH_AUTH_SOCK"
                ? agent : try expand(agent, tokens, home: environment.home, what: "IdentityAgent")
        }
        return resolved
    }

    /// `text` with `~` (at its start) and `%` tokens replaced as ssh replaces them; a token
    /// Cairn does not know is an error naming it.
    static func expand(_ text: String, _ tokens: [Character: String], home: String?, what: String) throws(SSHConfigError) -> String {
        var result = ""
        var rest = Substring(text)
        if let home, rest == "~" || rest.hasPrefix("~/") {
            result = home
            rest = rest.dropFirst()
        }
        while let character = rest.popFirst() {
            guard character == "%" else {
                result.append(character)
                continue
            }
            guard let token = rest.popFirst() else {
                throw SSHConfigError("\(what) \(text) ends with a lone %")
            }
            if token == "%" {
                result.append("%")
            } else if let value = tokens[token] {
                result += value
            } else {
                throw SSHConfigError(
                    "\(what) \(text): Cairn does not expand %\(token) (it expands %d, %h, %l, %L, %n, %p, %r, %u, %i and %%)")
            }
        }
        return result
    }
}
