import ArgumentParser
import CairnCommandLine
import CairnCore
import CairnFront
import CairnIdentity
import CairnMerge
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// `cairn-server`: the server of `cairn server run` and `cairn server auth`, which check their
/// options and become it (so that the tool starts without the web server's libraries).
@main
struct CairnServerTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cairn-server",
        abstract: "The server of cairn server run and cairn server auth (run it as those).",
        subcommands: [Run.self, Auth.self])

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "run", abstract: "Serve the users' repositories.")
        @OptionGroup var serve: ServeOptions

        func run() async throws {
            await CairnServerTool.serve(serve, role: .repositories)
        }
    }

    struct Auth: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "auth", abstract: "Answer nginx's auth_request.")
        @OptionGroup var serve: ServeOptions

        func run() async throws {
            await CairnServerTool.serve(serve, role: .authorization)
        }
    }

    /// Prepares the server, says where it serves, and serves until SIGTERM or SIGINT; a
    /// failure is one line on stderr and exit status 1.
    static func serve(_ serve: ServeOptions, role: FrontServer.Role) async {
        let environment = Environment.current
        environment.bootstrapLogging(defaultLevel: .info)
        do {
            let options = try frontOptions(serve)
            let server = try await FrontServer.prepare(options, logger: Logger(label: "cairn.server"))
            let scheme = options.tls == nil ? "http" : "https"
            try await server.run(role) { port, metricsPort in
                let what = role == .repositories
                    ? "the repositories of \(options.folder) at \(scheme)://\(options.host):\(port)/git/<uid>.git"
                    : "nginx's auth_request for \(options.folder) at \(scheme)://\(options.host):\(port)/"
                write("Serving \(what); metrics at http://\(options.metricsHost):\(metricsPort)/metrics (Ctrl-C stops)\n", to: 1)
            }
        } catch let error as CairnError {
            write("cairn: \(error.description)\n", to: 2)
            Glibc.exit(1)
        } catch {
            write("cairn: cannot serve: \(error)\n", to: 2)
            Glibc.exit(1)
        }
    }

    static func frontOptions(_ serve: ServeOptions) throws -> FrontOptions {
        let (host, port) = try serve.address(serve.listen, option: "--listen")
        let (metricsHost, metricsPort) = try serve.address(serve.metrics, option: "--metrics")
        var identity: IdentityOptions
        if let project = serve.firebaseProject {
            identity = .firebase(project: project, keySet: serve.jwks.map(KeySetSource.init) ?? .url(IdentityOptions.firebaseKeys))
            if let issuer = serve.issuer { identity.issuer = issuer }
            if let audience = serve.audience { identity.audience = audience }
        } else {
            identity = IdentityOptions(issuer: serve.issuer!, audience: serve.audience!, keySet: KeySetSource(serve.jwks!))
        }
        identity.uidClaim = serve.uidClaim
        guard let tool = Syscalls.executablePath() else {
            throw CairnError(.io, "cannot find the path of the running program (/proc/self/exe), beside which the cairn tool the hooks run is")
        }
        let cairn = FileSystem.parent(of: tool) + "/cairn"
        return FrontOptions(
            folder: FileSystem.absolutePath(serve.folder), host: host, port: port,
            tls: serve.tlsCertificate.map { ($0, serve.tlsKey!) },
            schemaSet: try serve.schema.map { try SchemaLocator.set(named: $0) }, identity: identity,
            allowsAnonymousWrites: serve.allowsAnonymousWrites, maxBackends: serve.maxBackends, queueTimeout: serve.queueTimeout,
            maxBodyBytes: Int(try SizeArgument.bytes(serve.maxBody, option: "--max-body", then: "nothing was served")),
            metricsHost: metricsHost, metricsPort: metricsPort, cairn: cairn)
    }

    /// A line on stdout (1) or stderr (2), whole, at once.
    static func write(_ line: String, to descriptor: Int32) {
        _ = Array(line.utf8).withUnsafeBytes { Syscalls.writeAll(descriptor, from: $0) }
    }
}
