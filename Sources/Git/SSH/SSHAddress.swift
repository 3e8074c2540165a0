/// Where an SSH remote points, as git reads it: `ssh://[user@]host[:port]/path` (also
/// `git+ssh://` and `ssh+git://`), or scp's `[user@]host:path`, whose path is relative to the
/// remote user's home.
public struct SSHAddress: Sendable, Hashable {
    /// The user written in the address, if any.
    public var user: String?
    /// The host as written: a name `~/.ssh/config` may know by another (`HostName`).
    public var host: String
    /// The port written in the address, if any.
    public var port: Int?
    /// The repository's path on the server, as written.
    public var path: String
    /// Whether the address is a URL (`ssh://…`) rather than scp's form.
    public var isURL: Bool

    /// Parses `text`; nil when it is not an SSH address.
    public init?(_ text: String) {
        let lower = text.lowercased()
        if let scheme = ["ssh://", "git+ssh://", "ssh+git://"].first(where: lower.hasPrefix) {
            let rest = text.dropFirst(scheme.count)
            guard let slash = rest.firstIndex(of: "/") else { return nil }
            var authority = rest[..<slash]
            path = String(rest[slash...])
            isURL = true
            if let at = authority.lastIndex(of: "@") {
                user = PercentEncoding.decoded(authority[..<at])
                authority = authority[authority.index(after: at)...]
            }
            if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
                host = String(authority[authority.index(after: authority.startIndex)..<close])
                authority = authority[authority.index(after: close)...]
                guard authority.isEmpty || authority.hasPrefix(":") else { return nil }
                if authority.hasPrefix(":") {
                    guard let number = Int(authority.dropFirst()), (1...65_535).contains(number) else { return nil }
                    port = number
                }
            } else if let colon = authority.lastIndex(of: ":") {
                host = String(authority[..<colon])
                let digits = authority[authority.index(after: colon)...]
                if !digits.isEmpty {
                    guard let number = Int(digits), (1...65_535).contains(number) else { return nil }
                    port = number
                }
            } else {
                host = String(authority)
            }
        } else {
            guard !text.contains("://"), let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") else { return nil }
            var authority = text[..<colon]
            path = String(text[text.index(after: colon)...])
            isURL = false
            if let at = authority.lastIndex(of: "@") {
                user = String(authority[..<at])
                authority = authority[authority.index(after: at)...]
            }
            host = String(authority)
        }
        guard !host.isEmpty, !path.isEmpty else { return nil }
    }

    /// The address libgit2 is given: the same path, at `host` and `port`, as `user`. An scp
    /// address keeps its form, so its path stays relative to the user's home; one with a port
    /// is written `[user@host:port]:path`, the form libgit2 reads for that.
    public func url(host: String, user: String, port: Int) -> String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        if isURL {
            return "ssh://\(PercentEncoding.encoded(user))@\(bracketed)\(port == 22 ? "" : ":\(port)")\(path)"
        }
        return port == 22 ? "\(user)@\(bracketed):\(path)" : "[\(user)@\(host):\(port)]:\(path)"
    }
}
