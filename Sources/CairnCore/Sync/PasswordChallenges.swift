import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The HTTP remotes that asked this process for a user name and password: later fetches and
/// pushes to them send the password with their first request, as git does after its first
/// challenge, instead of being refused once per connection (a sync connects twice: to fetch,
/// then to push). Kept in memory only, by URL and user name; the password itself is the one
/// each call is given. Across processes, the store's configuration remembers which URLs ask
/// (``Store/connecting(to:credentials:timeout:opened:_:)``).
enum PasswordChallenges {
    private static let asked = Mutex<Set<String>>([])

    private static func key(_ url: String, _ credentials: Credentials) -> String {
        url + "\u{0}" + credentials.username
    }

    /// The `Authorization` header to send to `url` from the first request, when it asked for
    /// these credentials' user before, or when the store says to (`proactive`).
    static func header(for url: String, credentials: Credentials?, proactive: Bool = false) -> String? {
        guard let credentials, url.hasPrefix("http://") || url.hasPrefix("https://"),
            proactive || asked.withLock({ $0.contains(key(url, credentials)) })
        else { return nil }
        let pair = Data((credentials.username + ":" + credentials.password).utf8)
        return "Authorization: Basic " + pair.base64EncodedString()
    }

    static func remember(_ url: String, credentials: Credentials?) {
        guard let credentials, url.hasPrefix("http://") || url.hasPrefix("https://") else { return }
        _ = asked.withLock { $0.insert(key(url, credentials)) }
    }

    /// `host:port` of an http(s) URL, as libgit2 names the connections it makes to it.
    static func endpoint(of url: String) -> String? {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { return nil }
        return host + ":" + String(components.port ?? (scheme == "https" ? 443 : 80))
    }

    static func forget(_ url: String, credentials: Credentials?) {
        guard let credentials else { return }
        _ = asked.withLock { $0.remove(key(url, credentials)) }
    }
}
