#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A real smart-HTTP git server on 127.0.0.1 for tests: lighttpd running `git http-backend` as
/// CGI, with HTTP basic auth on every request (reads too), so each user reaches only their own
/// repository. Needs lighttpd (scripts/install-deps.sh installs it).
public final class GitHTTPServer: Sendable {
    /// Why the server could not start; the description includes its logs.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    public let port: Int
    public let pid: Int32
    private let process: Process
    private let folder: TemporaryFolder
    private let stopping = NSLock()

    static let lighttpd = "/usr/sbin/lighttpd"
    static let httpBackend = "/usr/lib/git-core/git-http-backend"

    /// Starts lighttpd on a free port of 127.0.0.1 serving the bare repositories `<root>/<uid>.git`.
    /// `users`: name -> password. Each user may fetch and push only `<name>.git` (the URL path
    /// `/git/<name>.git/...`); anonymous requests and wrong passwords get 401 for every repository.
    /// A name may not contain `:`, `|`, `"`, `\`, `/` or control characters, nor a password a newline.
    public init(root: String, users: [String: String]) throws {
        for (name, password) in users {
            let refused = name.isEmpty || name.unicodeScalars.contains {
                $0.value < 0x20 || $0.value == 0x7F || ":|\"\\/".unicodeScalars.contains($0)
            }
            if refused || password.contains(where: \.isNewline) {
                throw StartError(description: "GitHTTPServer: user \(name.debugDescription) or their password cannot be served")
            }
        }
        if root.contains("\"") {
            throw StartError(description: "GitHTTPServer: the root \(root) may not contain '\"'")
        }
        let folder = TemporaryFolder("cairn-git-http")
        let paths = Paths(folder: folder.path)
        try FileManager.default.createDirectory(atPath: paths.documents, withIntermediateDirectories: false)
        let userFile = users.keys.sorted().map { "\($0):\(users[$0]!)\n" }.joined()
        try userFile.write(toFile: paths.users, atomically: false, encoding: .utf8)
        var tries = 0
        while true {
            tries += 1
            let port = try Loopback.freePort()
            let configuration = Self.configuration(root: root, folder: folder.path, port: port,
                                                   users: users.keys.sorted())
            try configuration.write(toFile: paths.configuration, atomically: false, encoding: .utf8)
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

    /// `http://127.0.0.1:<port>/git/<uid>.git`, optionally with `user:password@`.
    public func url(for uid: String, user: String? = nil, password: String? = nil) -> String {
        var credentials = ""
        if let user {
            credentials = Self.encoded(user) + (password.map { ":" + Self.encoded($0) } ?? "") + "@"
        }
        return "http://\(credentials)127.0.0.1:\(port)/git/\(Self.encoded(uid)).git"
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

    /// The lighttpd configuration: every URL needs a user, and `/git/<uid>.git` only `<uid>`.
    static func configuration(root: String, folder: String, port: Int, users: [String]) -> String {
        let paths = Paths(folder: folder)
        let require = { (user: String) in
            #"auth.require = ( "" => ( "method" => "basic", "realm" => "cairn", "require" => "user=\#(user)" ) )"#
        }
        var text = """
            server.modules = ( "mod_alias", "mod_setenv", "mod_auth", "mod_authn_file", "mod_cgi" )
            server.bind = "127.0.0.1"
            server.port = \(port)
            server.document-root = "\(paths.documents)"
            server.errorlog = "\(paths.errorLog)"
            server.pid-file = "\(paths.pidFile)"
            server.upload-dirs = ( "\(folder)" )
            server.max-request-size = 102400
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
            \(require("no:one"))

            """
        for user in users {
            text += """
                $HTTP["url"] =~ "^/git/\(regexEscaped(user))\\.git(/|$)" {
                    \(require(user))
                }

                """
        }
        return text
    }

    /// Where the server's files live in its folder.
    private struct Paths {
        var folder: String
        var configuration: String { folder + "/lighttpd.conf" }
        var users: String { folder + "/users" }
        var documents: String { folder + "/htdocs" }
        var errorLog: String { folder + "/error.log" }
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
    private static func launch(paths: Paths, port: Int, lastTry: Bool) throws -> Process? {
        try? FileManager.default.removeItem(atPath: paths.errorLog)
        let consoleURL = URL(fileURLWithPath: paths.consoleLog)
        try Data().write(to: consoleURL)
        let console = try FileHandle(forWritingTo: consoleURL)
        defer { try? console.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: lighttpd)
        process.arguments = ["-D", "-f", paths.configuration]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = console
        process.standardError = console
        // lighttpd inherits the starting thread's signal mask (Process keeps it), and the test
        // runner's threads block SIGTERM and SIGCHLD: unblocked while it starts, so stop() ends
        // it at once and it reaps its CGI processes as they end (else they stay zombies).
        var term = sigset_t()
        var previous = sigset_t()
        sigemptyset(&term)
        sigaddset(&term, SIGTERM)
        sigaddset(&term, SIGCHLD)
        pthread_sigmask(SIG_UNBLOCK, &term, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        try process.run()
        let deadline = Date() + 10
        while true {
            if !process.isRunning {
                process.waitUntilExit()
                let log = paths.log
                if log.contains("Address already in use") && !lastTry {
                    return nil
                }
                throw StartError(description: "GitHTTPServer: lighttpd exited (status \(process.terminationStatus)) on port \(port):\n\(log)")
            }
            // "server started" is logged once lighttpd has bound its port, so a connection is to it.
            if paths.log.contains("server started"), Loopback.canConnect(port: port) {
                return process
            }
            if Date() >= deadline {
                Loopback.terminate(process)
                throw StartError(description: "GitHTTPServer: lighttpd did not accept connections on port \(port) within 10 s:\n\(paths.log)")
            }
            usleep(20_000)
        }
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

    /// `text` percent-encoded for a URL path or user info: only unreserved ASCII stays.
    private static func encoded(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
