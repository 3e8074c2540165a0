import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real smart-HTTP git server (a ``GitServer``) on 127.0.0.1 for tests: lighttpd running
/// `git http-backend` as CGI, with HTTP basic auth on every request (reads too), so each user
/// reaches only their own repository. Needs lighttpd (scripts/install-deps.sh --tests installs it).
public final class GitHTTPServer: GitServer {
    public let port: Int
    public let pid: Int32
    private let process: ChildProcess
    private let folder: TemporaryFolder
    private let stopping = NSLock()

    static let lighttpd = "/usr/sbin/lighttpd"
    static let httpBackend = "/usr/lib/git-core/git-http-backend"

    /// Starts lighttpd on a free port of 127.0.0.1 serving the bare repositories `<root>/<uid>.git`.
    /// `users`: name -> password. With `access` `.owner`, each user may fetch and push only
    /// `<name>.git` (the URL path `/git/<name>.git/...`); anonymous requests and wrong passwords
    /// get 401 for every repository. A name may not contain `:`, `|`, `"`, `\`, `/` or control
    /// characters, nor a password a newline. A request body over `maxRequestKilobytes` gets 413.
    /// `contentAuthors` (collection -> its authors): every user may fetch the content items
    /// `<root>/content/<collection>/<item>.git`, only the collection's authors push to them.
    /// `lfsSocket`: the Unix socket of a Git LFS server (``GiftlessServer``) that gets the
    /// requests to `/git/<uid>.git/info/lfs/…` (git-lfs's endpoint for the remote), behind the
    /// same rules as the repository. `redirectingTo` (`http://host:port`): the server checks
    /// nothing and answers every request under `/git/` with a redirect (301) to the same path
    /// and query there, as a server that moved does. `keepAliveIdleSeconds`: how long the
    /// server keeps a connection open with no request on it (lighttpd's default, 5 s, unless
    /// given). `tls`: serve HTTPS with this certificate and key (PEM files), through
    /// lighttpd's `mod_openssl`.
    public init(
        root: String, users: [String: String], access: GitServerAccess = .owner,
        maxRequestKilobytes: Int = 102_400, contentAuthors: [String: [String]] = [:],
        lfsSocket: String? = nil, redirectingTo: String? = nil, keepAliveIdleSeconds: Int? = nil,
        tls: (certificate: String, key: String)? = nil
    ) throws {
        try Self.checkServable(root: root, users: users)
        let folder = TemporaryFolder("cairn-git-http")
        let paths = Paths(folder: folder.path)
        try FileManager.default.createDirectory(atPath: paths.documents, withIntermediateDirectories: false)
        let userFile = users.keys.sorted().map { "\($0):\(users[$0]!)\n" }.joined()
        try userFile.write(toFile: paths.users, atomically: false, encoding: .utf8)
        var tries = 0
        while true {
            tries += 1
            let port = try Loopback.freePort()
            let configuration =
                redirectingTo.map { Self.redirection(to: $0, folder: folder.path, port: port) }
                ?? Self.configuration(
                    root: root, folder: folder.path, port: port,
                    users: users.keys.sorted(), access: access,
                    maxRequestKilobytes: maxRequestKilobytes, contentAuthors: contentAuthors,
                    lfsSocket: lfsSocket)
            let idle = keepAliveIdleSeconds.map { "server.max-keep-alive-idle = \($0)\n" } ?? ""
            let secure =
                tls.map { tls in
                    "server.modules += ( \"mod_openssl\" )\nssl.engine = \"enable\"\nssl.pemfile = \"\(tls.certificate)\"\nssl.privkey = \"\(tls.key)\"\n"
                } ?? ""
            try (configuration + idle + secure).write(toFile: paths.configuration, atomically: false, encoding: .utf8)
            if let process = try Self.launch(paths: paths, port: port, lastTry: tries == 5) {
                self.port = port
                self.pid = process.processIdentifier
                self.process = process
                self.folder = folder
                return
            }
        }
    }

    deinit {
        stop()
    }

    /// Stops the server by its PID (SIGTERM, wait, then SIGKILL if still alive after 5 s).
    /// Idempotent; also called from deinit.
    public func stop() {
        stopping.lock()
        defer { stopping.unlock() }
        Loopback.terminate(process)
    }

    /// The server's error log content (for test failure messages), then anything lighttpd
    /// printed itself (errors from before the log was open).
    public var errorLog: String {
        Paths(folder: folder.path).log
    }

    /// The requests answered so far, one line each: the status, the request line and the
    /// `Authorization` header (`401 GET /git/u1.git/info/refs?service=git-upload-pack HTTP/1.1 -`). lighttpd writes
    /// its access log out every 4 seconds: this waits (up to 15 s) until a line satisfies
    /// `last`, the request expected to come last.
    public func requests(until last: (String) -> Bool) -> [String] {
        var lines: [String] = []
        for _ in 0..<150 {
            let text = (try? String(contentsOfFile: Paths(folder: folder.path).accessLog, encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n").map(String.init)
            if lines.contains(where: last) { break }
            usleep(100_000)
        }
        return lines
    }

    /// Every line of the access log now, without waiting: lighttpd writes it out every 4
    /// seconds, so a caller that counts requests waits that long first.
    public var accessLogLines: [String] {
        let text = (try? String(contentsOfFile: Paths(folder: folder.path).accessLog, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// lighttpd logs both a wrong password and a user its rule does not name as a password
    /// that does not match.
    public var failedLogins: Int {
        errorLog.components(separatedBy: "password doesn't match").count - 1
    }

    /// The lighttpd configuration: every URL needs a user, and `/git/<uid>.git` only `<uid>`
    /// (with `access` `.anyUser`, any user). lighttpd's CGI passes the authenticated user to
    /// the backend as `REMOTE_USER`. Content (`/git/content/<collection>/<item>.git`) is read
    /// by any user, and pushed (`git-receive-pack`, asked for in `info/refs` too) by the
    /// collection's authors alone: the rules CairnCore.docc's SharedContent shows. With
    /// `lfsSocket`, `/git/<uid>.git/info/lfs/…` goes to the LFS server there, and the same
    /// rules (they match on the URL's start) decide who reaches it.
    /// A server that only redirects `/git/…` to `target`.
    static func redirection(to target: String, folder: String, port: Int) -> String {
        let paths = Paths(folder: folder)
        return """
            server.modules = ( "mod_redirect", "mod_accesslog" )
            server.bind = "127.0.0.1"
            server.port = \(port)
            server.document-root = "\(paths.documents)"
            server.errorlog = "\(paths.errorLog)"
            server.pid-file = "\(paths.pidFile)"
            accesslog.filename = "\(paths.accessLog)"
            accesslog.format = "\(accessLogFormat)"
            url.redirect = ( "^/git/(.*)$" => "\(target)/git/$1" )
            url.redirect-code = 301

            """
    }

    /// The access log's lines: the status, the request line, and the `Authorization` header
    /// sent with it (`-` for none).
    static let accessLogFormat = "%s %r %{Authorization}i"

    static func configuration(
        root: String, folder: String, port: Int, users: [String], access: GitServerAccess,
        maxRequestKilobytes: Int, contentAuthors: [String: [String]] = [:],
        lfsSocket: String? = nil
    ) -> String {
        let paths = Paths(folder: folder)
        let require = { (requirement: String) in
            #"auth.require = ( "" => ( "method" => "basic", "realm" => "cairn", "require" => "\#(requirement)" ) )"#
        }
        // The proxy's rule comes after the CGI's, so that it is the one that handles LFS requests.
        let proxy = lfsSocket.map { socket in
            (
                module: #", "mod_proxy""#,
                rule: """
                $HTTP["url"] =~ "^/git/[^/]+\\.git/info/lfs/" {
                    proxy.server = ( "" => ( ( "host" => "\(socket)" ) ) )
                }

                """
            )
        }
        var text = """
            server.modules = ( "mod_alias", "mod_setenv", "mod_auth", "mod_authn_file", "mod_cgi", "mod_accesslog"\(proxy?.module ?? "") )
            accesslog.filename = "\(paths.accessLog)"
            accesslog.format = "\(accessLogFormat)"
            server.bind = "127.0.0.1"
            server.port = \(port)
            server.document-root = "\(paths.documents)"
            server.errorlog = "\(paths.errorLog)"
            server.pid-file = "\(paths.pidFile)"
            server.upload-dirs = ( "\(folder)" )
            server.max-request-size = \(maxRequestKilobytes)
            server.stream-request-body = 0
            server.stream-response-body = 2
            server.feature-flags = ( "auth.delay-invalid-creds" => "disable" )
            auth.backend = "plain"
            auth.backend.plain.userfile = "\(paths.users)"
            alias.url = ( "/git/" => "\(httpBackend)/" )
            $HTTP["url"] =~ "^/git/" {
                cgi.assign = ( "" => "" )
                setenv.set-environment = ( "GIT_PROJECT_ROOT" => "\(root)", "GIT_HTTP_EXPORT_ALL" => "1" )
            }
            \(proxy?.rule ?? "")\(require("user=no:one"))

            """
        // Last, so that they win over the rules above (lighttpd applies the last that matches).
        var content =
            contentAuthors.isEmpty
            ? ""
            : """
            $HTTP["url"] =~ "^/git/content/" {
                \(require("valid-user"))
            }

            """
        for (collection, authors) in contentAuthors.sorted(by: { $0.key < $1.key }) {
            let item = "^/git/content/\(regexEscaped(collection))/[^/]+\\.git/"
            let writers = authors.isEmpty ? "user=no:one" : authors.map { "user=" + $0 }.joined(separator: "|")
            content += """
                $HTTP["url"] =~ "\(item)git-receive-pack$" {
                    \(require(writers))
                }
                $HTTP["url"] =~ "\(item)info/refs$" {
                    $HTTP["querystring"] =~ "(^|&)service=git-receive-pack(&|$)" {
                        \(require(writers))
                    }
                }

                """
        }
        guard access == .owner else {
            return text + """
                $HTTP["url"] =~ "^/git/" {
                    \(require("valid-user"))
                }

                """ + content
        }
        for user in users {
            text += """
                $HTTP["url"] =~ "^/git/\(regexEscaped(user))\\.git(/|$)" {
                    \(require("user=" + user))
                }

                """
        }
        return text + content
    }

    /// Where the server's files live in its folder.
    private struct Paths {
        var folder: String
        var configuration: String { folder + "/lighttpd.conf" }
        var users: String { folder + "/users" }
        var documents: String { folder + "/htdocs" }
        var errorLog: String { folder + "/error.log" }
        var accessLog: String { folder + "/access.log" }
        var consoleLog: String { folder + "/console.log" }
        var pidFile: String { folder + "/lighttpd.pid" }

        var log: String {
            let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
            let console = read(consoleLog)
            return read(errorLog) + (console.isEmpty ? "" : "lighttpd output:\n" + console)
        }
    }

    /// Runs lighttpd and waits until it serves; nil when another program took the port first
    /// (and this is not the last try).
    private static func launch(paths: Paths, port: Int, lastTry: Bool) throws -> ChildProcess? {
        try? FileManager.default.removeItem(atPath: paths.errorLog)
        let process = try Loopback.start(lighttpd, ["-D", "-f", paths.configuration], console: paths.consoleLog)
        // "server started" is logged once lighttpd has bound its port, so a connection is to it.
        let serving = try Loopback.waitUntilServing(
            process, port: port, name: "GitHTTPServer: lighttpd", lastTry: lastTry,
            log: { paths.log }, bound: { $0.contains("server started") })
        return serving ? process : nil
    }

    /// `text` for a lighttpd (PCRE) regular expression: ASCII punctuation and spaces escaped.
    private static func regexEscaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, !(("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)) {
                result += "\\"
            }
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
