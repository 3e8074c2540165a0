import ArgumentParser
import CairnCluster
import CairnCommandLine
import CairnCore
import CairnFront
import CairnIdentity
import CairnMerge
import CairnSystem
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// `cairn-server`: the server of `cairn server run` and `cairn server auth`, which check their
/// options and become it (so that the tool starts without the web server's libraries).
/// Its entry is `main.swift`, which chooses the executor first.
struct CairnServerTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cairn-server",
        abstract: "The server of cairn server run and cairn server auth (run it as those).",
        subcommands: [Run.self, Auth.self, Backup.self, Restore.self, Map.self, Rebalance.self])

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

    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "backup", abstract: "Back up the repositories into an object store.")
        @OptionGroup var options: BackupOptions

        func run() async throws {
            let environment = Environment.current.variables
            let target = try CairnServerTool.target(options.to, endpoint: options.s3Endpoint)
            do {
                let summary = try await ShardBackup(
                    folder: FileSystem.absolutePath(options.folder), target: target, environment: environment
                ).run()
                let new =
                    summary.backedUp == 0 ? "nothing new" : "\(summary.backedUp) with something new (\(summary.bytes) bytes of bundles)"
                write(
                    "Backed up \(summary.users) user\(summary.users == 1 ? "" : "s") to \(target): \(new), in \((summary.seconds * 10).rounded() / 10) s\n",
                    to: 1)
            } catch {
                CairnServerTool.fail(error.description)
            }
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "restore", abstract: "Rebuild the repositories from a backup.")
        @OptionGroup var options: RestoreOptions

        func run() async throws {
            let environment = Environment.current.variables
            let target = try CairnServerTool.target(options.from, endpoint: options.s3Endpoint)
            do {
                let set = try options.schema.map { try SchemaLocator.set(named: $0) }
                let restore = ShardRestore(
                    folder: FileSystem.absolutePath(options.folder), target: target, environment: environment,
                    cairn: try CairnServerTool.cairnTool(), schemaSet: set)
                let summary = try await restore.run(force: options.force)
                for (uid, reason) in summary.refused { write("cairn: user \(uid) was not restored: \(reason)\n", to: 2) }
                write(
                    "Restored \(summary.restored.count) user\(summary.restored.count == 1 ? "" : "s") from \(target) in \((summary.seconds * 10).rounded() / 10) s\n",
                    to: 1)
                if !summary.refused.isEmpty {
                    CairnServerTool.fail(
                        "\(summary.refused.count) user\(summary.refused.count == 1 ? "" : "s") of the backup not restored (above); the others are in place"
                    )
                }
            } catch let error as CairnError {
                CairnServerTool.fail(error.description)
            } catch {
                CairnServerTool.fail("\(error)")
            }
        }
    }

    struct Map: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "map", abstract: "Print HAProxy's map of buckets.")
        @Argument var shards: [String]

        func run() async throws {
            guard !shards.isEmpty else { CairnServerTool.fail("name the shards, as HAProxy's backends are named") }
            write(BucketMap(evenlyOver: shards).text, to: 1)
        }
    }

    struct Rebalance: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "rebalance", abstract: "Add a shard and move its users to it.")
        @OptionGroup var options: RebalanceOptions

        func run() async throws {
            do {
                let secret = String(decoding: try CairnServerTool.adminSecret(options.adminSecretFile), as: UTF8.self)
                let rebalance = CairnCluster.Rebalance(
                    haproxy: HAProxyRuntime(address: options.haproxy), bucketsMap: FileSystem.absolutePath(options.bucketsMap),
                    usersMap: FileSystem.absolutePath(options.usersMap), shards: options.shardAddresses, secret: secret)
                let summary = try await rebalance.add(options.add) { line in write(line + "\n", to: 1) }
                write(
                    "Moved \(summary.moved.count) user\(summary.moved.count == 1 ? "" : "s") and \(summary.buckets) buckets to \(options.add) in \((summary.seconds * 10).rounded() / 10) s\n",
                    to: 1)
                if !summary.failed.isEmpty {
                    for (uid, reason) in summary.failed { write("cairn: \(uid) was not moved: \(reason)\n", to: 2) }
                    CairnServerTool.fail(
                        "\(summary.failed.count) user\(summary.failed.count == 1 ? "" : "s") stayed where they were (above); run the rebalance again to move them"
                    )
                }
            } catch let error as BackupError {
                CairnServerTool.fail(error.description)
            } catch let error as CairnError {
                CairnServerTool.fail(error.description)
            }
        }
    }

    /// A backup's target, or one line and exit status 1.
    static func target(_ text: String, endpoint: String?) throws -> BackupTarget {
        switch BackupTarget.parse(text, endpoint: endpoint) {
        case .success(let target): return target
        case .failure(let error): fail(error.description)
        }
    }

    /// One line on stderr, exit status 1.
    static func fail(_ message: String) -> Never {
        write("cairn: \(message)\n", to: 2)
        Glibc.exit(1)
    }

    /// The cairn tool the repositories' hooks run: beside this program.
    static func cairnTool() throws -> String {
        guard let tool = Syscalls.executablePath() else {
            throw CairnError(
                .io, "cannot find the path of the running program (/proc/self/exe), beside which the cairn tool the hooks run is")
        }
        return FileSystem.parent(of: tool) + "/cairn"
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
                let what =
                    role == .repositories
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
        let cairn = try cairnTool()
        return FrontOptions(
            folder: FileSystem.absolutePath(serve.folder), host: host, port: port,
            tls: serve.tlsCertificate.map { ($0, serve.tlsKey!) },
            schemaSet: try serve.schema.map { try SchemaLocator.set(named: $0) }, identity: identity,
            allowsAnonymousWrites: serve.allowsAnonymousWrites, maxBackends: serve.maxBackends, queueTimeout: serve.queueTimeout,
            maxBodyBytes: Int(try SizeArgument.bytes(serve.maxBody, option: "--max-body", then: "nothing was served")),
            metricsHost: metricsHost, metricsPort: metricsPort, adminSecret: try serve.adminSecretFile.map(adminSecret), cairn: cairn)
    }

    /// The operator's secret in `file`: its first line, which must not be empty.
    static func adminSecret(_ file: String) throws -> [UInt8] {
        guard let bytes = try FileSystem.read(file) else {
            throw CairnError(.notFound, "cannot read \(file), the administration's secret; give a file holding one line")
        }
        let line = Array(bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? [])
        guard line.count >= 16 else {
            throw CairnError(
                .invalidInput, "the secret in \(file) is shorter than 16 bytes; write a long random line there (openssl rand -hex 32)")
        }
        return line
    }

    /// A line on stdout (1) or stderr (2), whole, at once.
    static func write(_ line: String, to descriptor: Int32) {
        _ = Array(line.utf8).withUnsafeBytes { Syscalls.writeAll(descriptor, from: $0) }
    }
}
