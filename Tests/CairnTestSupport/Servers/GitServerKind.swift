/// The smart-HTTP git servers the tests run, each in front of `git http-backend`.
public enum GitServerKind: String, CaseIterable, Sendable, CustomStringConvertible {
    /// lighttpd running the backend as CGI (``GitHTTPServer``).
    case lighttpd
    /// nginx passing requests to fcgiwrap, which runs the backend (``NginxGitServer``).
    case nginx

    public var description: String { rawValue }

    /// Starts this server on a free port of 127.0.0.1 for the bare repositories
    /// `<root>/<uid>.git`; `users`: name -> password. A request whose body is larger than
    /// `maxRequestKilobytes` is refused with 413. `contentAuthors` (collection -> its authors):
    /// the content items `<root>/content/<collection>/<item>.git` are fetched by every user and
    /// pushed by the collection's authors alone.
    public func start(
        root: String, users: [String: String], access: GitServerAccess = .owner,
        maxRequestKilobytes: Int = 102_400, contentAuthors: [String: [String]] = [:]
    ) throws -> any GitServer {
        switch self {
        case .lighttpd:
            try GitHTTPServer(
                root: root, users: users, access: access, maxRequestKilobytes: maxRequestKilobytes,
                contentAuthors: contentAuthors)
        case .nginx:
            try NginxGitServer(
                root: root, users: users, access: access, maxRequestKilobytes: maxRequestKilobytes,
                contentAuthors: contentAuthors)
        }
    }
}
