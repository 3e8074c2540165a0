import Foundation

/// A real smart-HTTP git server on 127.0.0.1 for tests, serving the bare repositories
/// `<root>/<uid>.git` at `/git/<uid>.git` through `git http-backend`, with HTTP basic auth
/// on every request (reads too) and the authenticated user passed to the backend as
/// `REMOTE_USER`, so a repository's hook sees who pushes. ``GitServerKind`` names the servers
/// and starts one.
public protocol GitServer: AnyObject, Sendable {
    /// The port of 127.0.0.1 the server listens on.
    var port: Int { get }

    /// Stops the server's processes by their PIDs. Idempotent.
    func stop()

    /// What the server logged, for test failure messages.
    var errorLog: String { get }

    /// How many times the server logged refusing a user name with a password: a password that
    /// does not match, or a user who may not reach the repository.
    var failedLogins: Int { get }
}

extension GitServer {
    /// `http://127.0.0.1:<port>/git/<uid>.git`, optionally with `user:password@`.
    public func url(for uid: String, user: String? = nil, password: String? = nil) -> String {
        var credentials = ""
        if let user {
            credentials = Self.encoded(user) + (password.map { ":" + Self.encoded($0) } ?? "") + "@"
        }
        return "http://\(credentials)127.0.0.1:\(port)/git/\(Self.encoded(uid)).git"
    }

    /// `text` percent-encoded for a URL path or user info: only unreserved ASCII stays.
    static func encoded(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// Refuses what no server's configuration or password file can hold: a user name that is
    /// empty or has `:`, `|`, `"`, `\`, `/` or control characters, a password with a newline,
    /// and a root with `"`, `\`, `$` or control characters.
    static func checkServable(root: String, users: [String: String]) throws {
        let name = String(describing: Self.self)
        for (user, password) in users {
            let refused =
                user.isEmpty
                || user.unicodeScalars.contains {
                    $0.value < 0x20 || $0.value == 0x7F || ":|\"\\/".unicodeScalars.contains($0)
                }
            if refused || password.contains(where: \.isNewline) {
                throw GitServerStartError(description: "\(name): user \(user.debugDescription) or their password cannot be served")
            }
        }
        if root.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || "\"\\$".unicodeScalars.contains($0) }) {
            throw GitServerStartError(
                description: "\(name): the root \(root.debugDescription) may not contain '\"', '\\', '$' or control characters")
        }
    }
}
