import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real smart-HTTP git server on 127.0.0.1 for tests: nginx, with HTTP basic auth on every
/// request to a repository (reads too), passing the requests over FastCGI to fcgiwrap, which
/// runs `git http-backend` with the authenticated user as `REMOTE_USER`. Passwords are kept
/// hashed (SHA-512 crypt, by `openssl passwd -6`), one file per user, and `/git/<uid>.git`
/// reads only the file of `<uid>`: so each user reaches only their own repository. Needs
/// nginx, fcgiwrap and openssl (scripts/install-deps.sh --tests installs them). The configuration is
/// the one CairnCore.docc's TheServer shows.
public final class NginxGitServer: GitServer {
    public let port: Int
    /// The PID of nginx's master process.
    public let pid: Int32
    /// The PID of fcgiwrap (one process, no preforked children, so SIGTERM ends all of it).
    public let fcgiwrapPID: Int32
    private let nginx: ChildProcess
    private let fcgiwrap: ChildProcess
    private let folder: TemporaryFolder
    private let stopping = NSLock()

    static let nginxPath = "/usr/sbin/nginx"
    static let fcgiwrapPath = "/usr/sbin/fcgiwrap"
    static let openssl = "/usr/bin/openssl"
    static let httpBackend = "/usr/lib/git-core/git-http-backend"

    /// Starts fcgiwrap on a Unix socket and nginx on a free port of 127.0.0.1, serving the bare
    /// repositories `<root>/<uid>.git`. `users`: name -> password. With `access` `.owner`, each
    /// user may fetch and push only `<name>.git` (the URL path `/git/<name>.git/...`);
    /// anonymous requests, other users and wrong passwords get 401. A name may not contain
    /// `:`, `|`, `"`, `\`, `/` or control characters, nor a password a newline. A request
    /// body over `maxRequestKilobytes` gets 413. `contentAuthors` (collection -> its authors):
    /// every user may fetch the content items `<root>/content/<collection>/<item>.git`, only
    /// the collection's authors (their lines in `content/<collection>.authors.htpasswd`) push.
    public init(
        root: String, users: [String: String], access: GitServerAccess = .owner,
        maxRequestKilobytes: Int = 102_400, contentAuthors: [String: [String]] = [:]
    ) throws {
        try Self.checkServable(root: root, users: users)
        let folder = TemporaryFolder("cairn-git-nginx")
        let paths = Paths(folder: folder.path)
        guard paths.socket.utf8.count < 100 else {
            throw GitServerStartError(description: "NginxGitServer: the socket path \(paths.socket) is too long for a Unix socket")
        }
        try FileManager.default.createDirectory(atPath: paths.users, withIntermediateDirectories: false)
        var everyone = ""
        var lines: [String: String] = [:]
        for name in users.keys.sorted() {
            let line = "\(name):\(try Self.hash(users[name]!))\n"
            try line.write(toFile: paths.userFile(name), atomically: false, encoding: .utf8)
            everyone += line
            lines[name] = line
        }
        try everyone.write(toFile: paths.everyone, atomically: false, encoding: .utf8)
        if !contentAuthors.isEmpty {
            try FileManager.default.createDirectory(atPath: paths.content, withIntermediateDirectories: false)
        }
        for (collection, authors) in contentAuthors {
            try authors.compactMap { lines[$0] }.joined()
                .write(toFile: paths.authorsFile(collection), atomically: false, encoding: .utf8)
        }

        let (nginx, fcgiwrap, port) = try Self.launch(paths: paths) { port in
            Self.configuration(root: root, paths: paths, port: port, access: access, maxRequestKilobytes: maxRequestKilobytes)
        }
        (self.port, self.pid, self.fcgiwrapPID) = (port, nginx.processIdentifier, fcgiwrap.processIdentifier)
        (self.nginx, self.fcgiwrap, self.folder) = (nginx, fcgiwrap, folder)
    }

    /// nginx in front of `cairn server auth` at `authorizer` (`http://127.0.0.1:PORT`), as
    /// CairnCore.docc's TheServer sets it up: every request to `/git/…` is first asked of it
    /// (`auth_request`, with the original URI and the `Authorization` header), and passed to
    /// `git http-backend` with the user it names (`X-Cairn-User`) as `REMOTE_USER`; its 401
    /// (with the challenge) and 403 go back to the client.
    public init(root: String, authorizer: String, maxRequestKilobytes: Int = 102_400) throws {
        let folder = TemporaryFolder("cairn-git-nginx")
        let paths = Paths(folder: folder.path)
        guard paths.socket.utf8.count < 100 else {
            throw GitServerStartError(description: "NginxGitServer: the socket path \(paths.socket) is too long for a Unix socket")
        }
        let (nginx, fcgiwrap, port) = try Self.launch(paths: paths) { port in
            Self.authRequestConfiguration(
                root: root, paths: paths, port: port, authorizer: authorizer, maxRequestKilobytes: maxRequestKilobytes)
        }
        (self.port, self.pid, self.fcgiwrapPID) = (port, nginx.processIdentifier, fcgiwrap.processIdentifier)
        (self.nginx, self.fcgiwrap, self.folder) = (nginx, fcgiwrap, folder)
    }

    /// Starts fcgiwrap, then nginx on a free port with the configuration made for it (another
    /// port when another program took it first, five tries).
    private static func launch(paths: Paths, configuration: (Int) -> String) throws -> (
        nginx: ChildProcess, fcgiwrap: ChildProcess, port: Int
    ) {
        let fcgiwrap = try Self.launchFcgiwrap(paths: paths)
        var tries = 0
        while true {
            tries += 1
            let port = try Loopback.freePort()
            try configuration(port).write(toFile: paths.configuration, atomically: false, encoding: .utf8)
            let nginx: ChildProcess?
            do {
                nginx = try Self.launchNginx(paths: paths, port: port, lastTry: tries == 5)
            } catch {
                Loopback.terminate(fcgiwrap)
                throw error
            }
            if let nginx { return (nginx, fcgiwrap, port) }
        }
    }

    deinit {
        stop()
    }

    /// Stops nginx, then fcgiwrap, each by its PID (SIGTERM, wait, then SIGKILL if still alive
    /// after 5 s). Idempotent; also called from deinit.
    public func stop() {
        stopping.lock()
        defer { stopping.unlock() }
        Loopback.terminate(nginx)
        Loopback.terminate(fcgiwrap)
    }

    /// nginx's error log (who was refused and why), then what nginx and fcgiwrap printed
    /// (the backend's errors among them).
    public var errorLog: String {
        Paths(folder: folder.path).log
    }

    /// nginx logs a wrong password as a mismatch, and a user missing from the repository's
    /// password file as not found there.
    public var failedLogins: Int {
        let log = errorLog
        return log.components(separatedBy: ": password mismatch").count - 1
            + log.components(separatedBy: "\" was not found in \"").count - 1
    }

    /// The nginx configuration. Only `/git/<uid>.git/...` is served, to users of the password
    /// file of `<uid>` (with `access` `.anyUser`, of the file of every user); the variables
    /// fcgiwrap needs come from Debian's `fastcgi_params`, `REMOTE_USER` among them. Content
    /// (`/git/content/<collection>/<item>.git/...`) takes every user's password to fetch and
    /// only the collection's authors' to push (`git-receive-pack`, asked for in `info/refs`
    /// too): the rules CairnCore.docc's SharedContent shows.
    static func configuration(
        root: String, paths: Paths, port: Int, access: GitServerAccess,
        maxRequestKilobytes: Int
    ) -> String {
        let passwords = access == .owner ? paths.users + "/$uid.htpasswd" : paths.everyone
        // The workers read the password files and the socket in a folder only this user may
        // enter: as root, nginx would otherwise run them as nobody.
        let user = geteuid() == 0 ? "user root;\n" : ""
        return """
            \(user)daemon off;
            worker_processes 1;
            pid "\(paths.pidFile)";
            error_log "\(paths.errorLog)" notice;
            events {
                worker_connections 64;
            }
            http {
                access_log "\(paths.accessLog)";
                client_body_temp_path "\(paths.temporary)/body";
                fastcgi_temp_path "\(paths.temporary)/fastcgi";
                proxy_temp_path "\(paths.temporary)/proxy";
                uwsgi_temp_path "\(paths.temporary)/uwsgi";
                scgi_temp_path "\(paths.temporary)/scgi";
                client_max_body_size \(maxRequestKilobytes)k;

                # A push to content (receive-pack, and the info/refs that asks for it) takes
                # the collection's authors; anything else every user.
                map "$uri:$arg_service" $cairn_content_passwords {
                    default "\(paths.everyone)";
                    "~/git-receive-pack:$" "\(paths.content)/$collection.authors.htpasswd";
                    "~/info/refs:git-receive-pack$" "\(paths.content)/$collection.authors.htpasswd";
                }

                server {
                    listen 127.0.0.1:\(port);

                    location ~ "^/git(?<path>/(?<uid>[^/]+)\\.git(/.*)?)$" {
                        auth_basic "cairn";
                        auth_basic_user_file "\(passwords)";
                        include /etc/nginx/fastcgi_params;
                        fastcgi_param SCRIPT_FILENAME \(httpBackend);
                        fastcgi_param PATH_INFO $path;
                        fastcgi_param GIT_PROJECT_ROOT "\(root)";
                        fastcgi_param GIT_HTTP_EXPORT_ALL 1;
                        fastcgi_pass "unix:\(paths.socket)";
                    }
                    location ~ "^/git(?<path>/content/(?<collection>[^/]+)/[^/]+\\.git(/.*)?)$" {
                        auth_basic "cairn";
                        auth_basic_user_file $cairn_content_passwords;
                        include /etc/nginx/fastcgi_params;
                        fastcgi_param SCRIPT_FILENAME \(httpBackend);
                        fastcgi_param PATH_INFO $path;
                        fastcgi_param GIT_PROJECT_ROOT "\(root)";
                        fastcgi_param GIT_HTTP_EXPORT_ALL 1;
                        fastcgi_pass "unix:\(paths.socket)";
                    }
                    location / {
                        return 404;
                    }
                }
            }

            """
    }

    /// The configuration in front of `cairn server auth`: the one CairnCore.docc's TheServer shows.
    static func authRequestConfiguration(root: String, paths: Paths, port: Int, authorizer: String, maxRequestKilobytes: Int) -> String {
        let user = geteuid() == 0 ? "user root;\n" : ""
        return """
            \(user)daemon off;
            worker_processes 1;
            pid "\(paths.pidFile)";
            error_log "\(paths.errorLog)" notice;
            events {
                worker_connections 64;
            }
            http {
                access_log "\(paths.accessLog)";
                client_body_temp_path "\(paths.temporary)/body";
                fastcgi_temp_path "\(paths.temporary)/fastcgi";
                proxy_temp_path "\(paths.temporary)/proxy";
                uwsgi_temp_path "\(paths.temporary)/uwsgi";
                scgi_temp_path "\(paths.temporary)/scgi";
                client_max_body_size \(maxRequestKilobytes)k;

                server {
                    listen 127.0.0.1:\(port);

                    location ~ "^/git(?<path>/.*)$" {
                        auth_request /cairn-auth;
                        auth_request_set $cairn_user $upstream_http_x_cairn_user;
                        include /etc/nginx/fastcgi_params;
                        fastcgi_param SCRIPT_FILENAME \(httpBackend);
                        fastcgi_param PATH_INFO $path;
                        fastcgi_param GIT_PROJECT_ROOT "\(root)";
                        fastcgi_param GIT_HTTP_EXPORT_ALL 1;
                        fastcgi_param REMOTE_USER $cairn_user;
                        fastcgi_pass "unix:\(paths.socket)";
                    }
                    location = /cairn-auth {
                        internal;
                        proxy_pass \(authorizer)/auth;
                        proxy_pass_request_body off;
                        proxy_set_header Content-Length "";
                        proxy_set_header X-Original-URI $request_uri;
                        proxy_set_header X-Original-Method $request_method;
                    }
                    location / {
                        return 404;
                    }
                }
            }

            """
    }

    /// Where the server's files live in its folder.
    struct Paths {
        var folder: String
        var configuration: String { folder + "/nginx.conf" }
        /// One password file per user, `<uid>.htpasswd`.
        var users: String { folder + "/users" }
        /// The password file of every user.
        var everyone: String { folder + "/everyone.htpasswd" }
        var socket: String { folder + "/fcgiwrap.socket" }
        var temporary: String { folder }
        var errorLog: String { folder + "/error.log" }
        var accessLog: String { folder + "/access.log" }
        var nginxConsole: String { folder + "/nginx.console" }
        var fcgiwrapConsole: String { folder + "/fcgiwrap.console" }
        var pidFile: String { folder + "/nginx.pid" }

        /// The password files of the collections' authors.
        var content: String { folder + "/content" }

        func authorsFile(_ collection: String) -> String {
            content + "/" + collection + ".authors.htpasswd"
        }

        func userFile(_ name: String) -> String {
            users + "/" + name + ".htpasswd"
        }

        var log: String {
            let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
            return [("", errorLog), ("nginx output:\n", nginxConsole), ("fcgiwrap output:\n", fcgiwrapConsole)]
                .map { title, path in read(path).isEmpty ? "" : title + read(path) }
                .joined()
        }
    }

    /// `password` as a password file stores it: SHA-512 crypt with a random salt, which nginx
    /// checks with the system's crypt().
    private static func hash(_ password: String) throws -> String {
        let hashed = try runProcess(openssl, ["passwd", "-6", "-stdin"], input: password + "\n")
        let line = hashed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard hashed.status == 0, line.hasPrefix("$6$") else {
            throw GitServerStartError(description: "NginxGitServer: openssl passwd failed (status \(hashed.status)): \(hashed.stderr)")
        }
        return line
    }

    /// Runs fcgiwrap on the folder's socket and waits (at most 10 s) until it accepts
    /// connections there.
    private static func launchFcgiwrap(paths: Paths) throws -> ChildProcess {
        let process = try Loopback.start(fcgiwrapPath, ["-s", "unix:" + paths.socket], console: paths.fcgiwrapConsole)
        let deadline = Date() + 10
        while !Loopback.canConnect(socket: paths.socket) {
            if !process.isRunning {
                process.waitUntilExit()
                throw GitServerStartError(
                    description: "NginxGitServer: fcgiwrap exited (status \(process.terminationStatus)):\n\(paths.log)")
            }
            if Date() >= deadline {
                Loopback.terminate(process)
                throw GitServerStartError(
                    description: "NginxGitServer: fcgiwrap did not accept connections on \(paths.socket) within 10 s:\n\(paths.log)")
            }
            usleep(20_000)
        }
        return process
    }

    /// Runs nginx and waits until it serves; nil when another program took the port first
    /// (and this is not the last try).
    private static func launchNginx(paths: Paths, port: Int, lastTry: Bool) throws -> ChildProcess? {
        try? FileManager.default.removeItem(atPath: paths.errorLog)
        // -e: the error log from the start (else nginx first opens /var/log/nginx/error.log);
        // -p: the prefix its other relative paths would start from.
        let process = try Loopback.start(
            nginxPath, ["-e", paths.errorLog, "-p", paths.folder + "/", "-c", paths.configuration],
            console: paths.nginxConsole)
        // nginx binds its port while reading the configuration, before it starts its workers.
        let serving = try Loopback.waitUntilServing(
            process, port: port, name: "NginxGitServer: nginx", lastTry: lastTry,
            log: { paths.log }, bound: { $0.contains("start worker processes") })
        return serving ? process : nil
    }
}
