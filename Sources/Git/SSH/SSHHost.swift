/// What SSH configuration says about one host: where to connect, as whom, and which keys to
/// offer. A value nothing set stays nil; the caller's defaults then apply (the host as given,
/// the local user, port 22, the default key files, the agent of `SSH_AUTH_SOCK`).
public struct SSHHost: Sendable, Hashable {
    /// `HostName`: the real host name or address (may hold `%h`, the host as given).
    public var hostName: String?
    /// `User`: the user to log in as.
    public var user: String?
    /// `Port`.
    public var port: Int?
    /// `IdentityFile`: key files in the order obtained, not yet expanded (`~`, `%d`, …).
    public var identityFiles: [String] = []
    /// `IdentitiesOnly`: offer only the keys of the identity files, even when the agent holds others.
    public var identitiesOnly: Bool?
    /// `IdentityAgent`: the agent's socket, `SSH_AUTH_SOCK`, or `none`.
    public var identityAgent: String?

    public init() {}

    /// The options ssh reads that this type keeps; every other keyword is left alone.
    static let keywords: Set<String> = ["hostname", "user", "port", "identityfile", "identitiesonly", "identityagent"]

    /// Takes one option (`keyword` lowercased) as ssh does: the first value obtained wins,
    /// identity files add up. `location` names the line for errors.
    mutating func take(_ keyword: String, _ arguments: [String], at location: String) throws(SSHConfigError) {
        guard Self.keywords.contains(keyword) else { return }
        guard arguments.count == 1, let value = arguments.first, !value.isEmpty else {
            throw SSHConfigError("\(location): \(keyword) takes one value, found \(arguments.count)")
        }
        switch keyword {
        case "hostname":
            if hostName == nil { hostName = value }
        case "user":
            if user == nil { user = value }
        case "port":
            guard let number = Int(value), (1...65_535).contains(number) else {
                throw SSHConfigError("\(location): Port \(String(reflecting: value)) is not a port number")
            }
            if port == nil { port = number }
        case "identityfile":
            // ssh keeps at most 100; the same file named twice is offered once.
            if identityFiles.count < 100, !identityFiles.contains(value) { identityFiles.append(value) }
        case "identitiesonly":
            guard let flag = Self.flag(value) else {
                throw SSHConfigError("\(location): IdentitiesOnly is yes or no, not \(String(reflecting: value))")
            }
            if identitiesOnly == nil { identitiesOnly = flag }
        case "identityagent":
            if identityAgent == nil { identityAgent = value }
        default:
            break
        }
    }

    /// `yes`/`true` or `no`/`false`, as ssh reads a flag.
    private static func flag(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "yes", "true": true
        case "no", "false": false
        default: nil
        }
    }
}
