import Git

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a store syncs: a bare repository reached by a path or `file://`, `git://` (read
/// only), `http(s)://` (smart HTTP), or SSH (`ssh://` or scp's `[user@]host:path`).
///
/// Credentials written into an HTTP URL (`https://u1:secret@host/u1.git`) are taken out: the
/// URL Cairn keeps and shows never holds a password; the password is used for the command
/// that was given it, and otherwise comes from `CAIRN_PASSWORD`.
public struct RemoteURL: Sendable, Hashable, CustomStringConvertible {
    /// How Cairn reaches the remote.
    public enum Transport: Sendable, Hashable {
        /// A bare repository on this machine (a path or `file://`).
        case path
        /// `git://`: unauthenticated and read-only.
        case git
        /// `http://` or `https://`.
        case http
        /// `ssh://` or `[user@]host:path`.
        case ssh
    }

    /// How the remote is reached.
    public let transport: Transport
    /// The URL without its password: what the store's configuration keeps and what libgit2 is
    /// given. A path is made absolute.
    public let url: String
    /// The user name written in the URL, if any.
    public let username: String?
    /// The password written in the URL, if any (never stored).
    public let password: String?

    /// Parses a remote as a user gives it; a relative path is taken from `folder` (default:
    /// the current folder). Refuses, in one line, what is not a remote Cairn can use.
    public init(_ text: String, relativeTo folder: String? = nil) throws(CairnError) {
        guard !text.isEmpty, !text.contains(where: { $0.isNewline || $0 == "\0" }) else {
            throw CairnError(
                .invalidInput,
                "invalid remote \(String(reflecting: text)): give a path to a bare repository or a file://, http(s)://, ssh:// or git:// URL"
            )
        }
        let lower = text.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") {
            transport = .http
            let scheme = text.prefix { $0 != ":" } + "://"
            let rest = text.dropFirst(scheme.count)
            let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                let userInfo = authority[..<at]
                let user = userInfo.prefix { $0 != ":" }
                username = PercentEncoding.decoded(String(user))
                password =
                    user.endIndex < userInfo.endIndex
                    ? PercentEncoding.decoded(String(userInfo[userInfo.index(after: user.endIndex)...])) : nil
                url = scheme + (user.isEmpty ? "" : user + "@") + authority[authority.index(after: at)...] + rest[authorityEnd...]
            } else {
                (username, password) = (nil, nil)
                url = text
            }
            let host = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
            guard !host.prefix(while: { $0 != ":" }).isEmpty else {
                throw CairnError(.invalidInput, "invalid remote \(url): it names no host")
            }
            return
        }
        (username, password) = (nil, nil)
        if lower.hasPrefix("git://") {
            (transport, url) = (.git, text)
        } else if lower.hasPrefix("ssh://") || lower.hasPrefix("git+ssh://") {
            (transport, url) = (.ssh, text)
        } else if lower.hasPrefix("file://") {
            let path = String(text.dropFirst("file://".count))
            guard path.hasPrefix("/") else {
                throw CairnError(.invalidInput, "invalid remote \(text): a file:// URL needs an absolute path (file:///srv/cairn/u1.git)")
            }
            (transport, url) = (.path, path)
        } else if text.contains("://") {
            throw CairnError(.invalidInput, "unsupported remote \(text): use a path, file://, http(s)://, ssh:// or git://")
        } else if let colon = text.firstIndex(of: ":"), colon != text.startIndex, !text[..<colon].contains("/") {
            // [user@]host:path, as scp writes it; git reads a colon before any slash so too,
            // and the host may be a name of ~/.ssh/config.
            (transport, url) = (.ssh, text)
        } else {
            let base = folder ?? FileManager.default.currentDirectoryPath
            (transport, url) = (.path, Self.absolute(text, in: base))
        }
    }

    /// What to show and store: the URL without a password.
    public var description: String { url }

    /// The URL libgit2 connects to: ``url``, but for HTTP without the user name, which goes
    /// with the password in the credentials Cairn gives when the server asks. Given a user
    /// name in the URL, libgit2 first tries it with an empty password: one more round trip on
    /// every fetch and push, and a failed login in the server's log each time (what tools such
    /// as fail2ban count to block an address).
    public var connectionURL: String {
        guard transport == .http, let schemeEnd = url.firstRange(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return url }
        return String(url[..<schemeEnd.upperBound] + rest[rest.index(after: at)...])
    }

    /// Whether Cairn refuses to push there: `git://` has no authentication, and a user's
    /// progress is private.
    public var isReadOnly: Bool { transport == .git }

    /// The user id a URL most likely serves: its last component without `.git`
    /// (`https://host/git/u1.git` → `u1`).
    public var impliedUID: String? {
        var last = url.split(separator: "/").last.map(String.init) ?? ""
        if let colon = last.lastIndex(of: ":") { last = String(last[last.index(after: colon)...]) }
        if last.hasSuffix(".git") { last.removeLast(4) }
        return last.isEmpty ? nil : last
    }

    /// The credentials to offer: the URL's own, else the configuration's (the user name
    /// defaulting to the URL's). Nil when there is no password to give.
    public func credentials(fallingBackOn configuration: Configuration) -> Credentials? {
        guard transport == .http || transport == .ssh else { return nil }
        let user = username ?? configuration.username
        let secret = password ?? configuration.password
        guard let user, let secret else { return nil }
        return Credentials(username: user, password: secret)
    }

    package static func absolute(_ path: String, in folder: String) -> String {
        let joined = path.hasPrefix("/") ? path : folder + "/" + path
        return Home.normalize(joined)
    }
}
