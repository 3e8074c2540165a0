import CairnCluster
import CairnCore
import CairnIdentity
import CairnServer
import CairnSystem
import CoreMetrics
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import Synchronization
import UnixSignals

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `cairn server run`: one process that serves a whole deployment on one machine. It checks
/// each request's ID token (``Gatekeeper``), makes the user's repository on their first sync
/// (``Server/provision(uid:in:cairn:schemaSet:)``), and runs git's own `git http-backend`
/// for the protocol (``GitHTTPBackend``), at most ``FrontOptions/maxBackends`` at once
/// (``BackendSlots``: later requests wait, then get 503 with `Retry-After`). Request bodies
/// over the limit get 413. Every request is one log line; `/metrics` and `/healthz` are served
/// on their own, private, address.
public struct FrontServer: Sendable {
    public let options: FrontOptions
    let gatekeeper: Gatekeeper
    let backend: GitHTTPBackend
    let slots: BackendSlots
    let metrics: FrontMetrics
    let logger: Logger
    /// Where each request's hooks report (``HookReport``), one file a request.
    let reports: String
    let clock: @Sendable () -> Double = { Syscalls.monotonicSeconds() }

    /// Checks what the server needs before it listens — the folder can be written, the key
    /// set reads, the backend and the TLS files are there — and refuses in one line when it
    /// cannot serve.
    public static func prepare(_ options: FrontOptions, logger: Logger) async throws(CairnError) -> FrontServer {
        var existing = options.folder
        while FileSystem.kind(existing) == nil, existing != "/" { existing = FileSystem.parent(of: existing) }
        guard FileSystem.kind(existing) == .folder else {
            throw CairnError(
                .invalidInput, "\(existing) is not a folder, so \(options.folder) cannot be made; name another folder for the repositories")
        }
        try FileSystem.makeFolders(options.folder)
        guard FileManager.default.isWritableFile(atPath: options.folder) else {
            throw CairnError(
                .io, "\(options.folder) cannot be written, so no repository can be made there; name a folder this user may write")
        }
        guard FileManager.default.isExecutableFile(atPath: options.httpBackend) else {
            throw CairnError(
                .notFound, "\(options.httpBackend) is not there: git's http-backend serves the repositories (Debian's git package has it)")
        }
        if let tls = options.tls {
            for file in [tls.certificate, tls.key] where !FileManager.default.isReadableFile(atPath: file) {
                throw CairnError(.notFound, "cannot read \(file) for HTTPS; give the PEM files of the certificate and its key")
            }
        }
        guard options.port == 0 || (options.host, options.port) != (options.metricsHost, options.metricsPort) else {
            throw CairnError(
                .invalidInput,
                "--metrics \(options.metricsHost):\(options.metricsPort) is the address the repositories are served on; give the metrics an address of their own"
            )
        }
        let verifier = try await TokenVerifier.start(options.identity, logger: logger)
        let reports = try FileSystem.makeTemporaryFolder(prefix: "cairn-front-reports")
        return FrontServer(
            options: options, gatekeeper: Gatekeeper(verifier: verifier, allowsAnonymousWrites: options.allowsAnonymousWrites),
            backend: GitHTTPBackend(executable: options.httpBackend, root: options.folder), slots: BackendSlots(limit: options.maxBackends),
            metrics: FrontMetrics(), logger: logger, reports: reports)
    }

    /// What the server answers at its address: the repositories (`cairn server run`), or the
    /// token check nginx asks before it passes a request on (`cairn server auth`).
    public enum Role: Sendable {
        case repositories
        case authorization
    }

    /// Serves until SIGTERM or SIGINT; `ready` is told the two ports once both listen.
    public func run(
        _ role: Role = .repositories,
        ready: @escaping @Sendable (_ port: Int, _ metricsPort: Int) -> Void = { _, _ in }
    ) async throws {
        defer { try? FileManager.default.removeItem(atPath: reports) }
        let ports = PortPair()
        let quiet = Logger(label: "cairn.front.http") { _ in SwiftLogNoOpLogHandler() }
        let router = Router(context: FrontRequestContext.self)
        let handler: @Sendable (Request, FrontRequestContext) async -> Response = { request, context in
            switch role {
            case .repositories: await respond(to: request, context: context)
            case .authorization: await authorize(request)
            }
        }
        router.get("**", use: handler)
        router.post("**", use: handler)
        router.head("**", use: handler)
        let server: HTTPServerBuilder =
            if let tls = options.tls {
                try .tls(.http1(), tlsConfiguration: Self.tlsConfiguration(certificate: tls.certificate, key: tls.key))
            } else {
                .http1()
            }
        let application = Application(
            router: router, server: server,
            configuration: .init(address: .hostname(options.host, port: options.port), serverName: nil),
            onServerRunning: { channel in
                if let both = ports.set(main: channel.localAddress?.port ?? 0) { ready(both.0, both.1) }
            },
            logger: quiet)
        let metricsApplication = Application(
            router: metricsRouter(),
            configuration: .init(address: .hostname(options.metricsHost, port: options.metricsPort), serverName: nil),
            onServerRunning: { channel in
                if let both = ports.set(metrics: channel.localAddress?.port ?? 0) { ready(both.0, both.1) }
            },
            logger: quiet)
        let group = ServiceGroup(
            services: [application, metricsApplication], gracefulShutdownSignals: [.sigterm, .sigint],
            cancellationSignals: [], logger: quiet)
        try await group.run()
    }

    /// `/metrics` (Prometheus's text format) and `/healthz`.
    private func metricsRouter() -> Router<BasicRequestContext> {
        let router = Router()
        let metrics = self.metrics
        router.get("/metrics") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: metrics.text())))
        }
        router.get("/healthz") { _, _ in Self.text(200, "ok") }
        addAdministration(to: router)
        return router
    }

    // MARK: A request

    /// Answers one request to the repositories' address.
    func respond(to request: Request, context: FrontRequestContext) async -> Response {
        let started = clock()
        var line = RequestLine(id: Self.requestID(), method: request.method.rawValue)
        let path = request.uri.path
        let query = request.uri.query
        if case .success(let read) = GitRequestPath.read(path) { line.route = Self.route(of: read.rest) }
        func finish(_ status: Int, _ message: String, reason: String? = nil, headers: HTTPFields = [:]) -> Response {
            metrics.request(route: line.route, status: status)
            line.log(logger, status: status, seconds: clock() - started, reason: reason)
            var fields = headers
            fields[HTTPField.Name("X-Request-ID")!] = line.id
            return Self.text(status, message, headers: fields)
        }
        guard path.hasPrefix(GitRequestPath.prefix) else {
            return finish(404, "nothing is served at \(path): the repositories are at /git/<uid>.git")
        }
        let decision = await gatekeeper.decide(authorization: request.headers[.authorization], path: path, query: query)
        let identity: Identity, repository: GitRequestPath
        switch decision {
        case .refused(let status, let reason, let message):
            if reason != "path" { metrics.tokenRefused(reason) }
            var headers = HTTPFields()
            if status == 401 { headers[.wwwAuthenticate] = "Basic realm=\"cairn\", charset=\"UTF-8\"" }
            return finish(status, message, reason: reason, headers: headers)
        case .allowed(let who, let read):
            (identity, repository) = (who, read)
        }
        line.uid = identity.uid
        let expected: [HTTPRequest.Method] =
            repository.rest == "git-upload-pack" || repository.rest == "git-receive-pack" ? [.post] : [.get, .head]
        guard expected.contains(request.method) else {
            return finish(405, "\(request.method) is not how git asks for \(repository.rest)")
        }
        // The user's repository exists from their first authenticated request on — but an
        // anonymous account's, which may not push, is never made; content is made by its
        // operator (`cairn server content init`).
        if let refusal = anonymousRefusal(identity, repository) {
            metrics.tokenRefused(refusal.reason)
            return finish(403, refusal.message, reason: refusal.reason)
        }
        if let refusal = shardRefusal(repository, query: query) {
            return finish(refusal.status, refusal.message, reason: refusal.reason, headers: Self.retryAfter(5))
        }
        // A push runs holding its permit, which a move of the repository waits for.
        var permit: PushPermit?
        if repository.uid != nil, repository.rest == "git-receive-pack",
            FileSystem.kind(options.folder + "/" + repository.folder) == .folder
        {
            permit = PushPermit.acquire(options.folder + "/" + repository.folder)
            if permit == nil {
                return finish(503, Self.heldMessage(identity.uid), reason: "held", headers: Self.retryAfter(5))
            }
        }
        if repository.uid != nil {
            do {
                if try Server.provision(uid: identity.uid, in: options.folder, cairn: options.cairn, schemaSet: options.schemaSet) {
                    metrics.provisioned()
                    logger.info("provisioned", metadata: ["request": "\(line.id)", "uid": "\(identity.uid)"])
                }
            } catch {
                return finish(500, "cannot make the repository of \(identity.uid): \(error.message)")
            }
        } else if FileSystem.kind(options.folder + "/" + repository.folder) != .folder {
            return finish(404, "there is no item \(repository.folder.dropFirst("content/".count).dropLast(4)) on this server")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > options.maxBodyBytes {
            return finish(413, Self.tooLarge(options.maxBodyBytes), reason: "body")
        }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: options.maxBodyBytes)
        } catch {
            return finish(413, Self.tooLarge(options.maxBodyBytes), reason: "body")
        }
        guard await slots.acquire(timeout: options.queueTimeout) else {
            var headers = HTTPFields()
            headers[.retryAfter] = "5"
            return finish(
                503,
                "the server runs \(options.maxBackends) git backends at once, all busy for \(Int(options.queueTimeout)) s; try again shortly",
                reason: "busy", headers: headers)
        }
        metrics.backendsRunning.record(await slots.running)
        let report = reports + "/" + line.id
        let call = GitHTTPBackend.Call(
            method: request.method.rawValue, path: repository, query: query, contentType: request.headers[.contentType],
            contentEncoding: request.headers[.contentEncoding], gitProtocol: request.headers[HTTPField.Name("Git-Protocol")!],
            body: Array(buffer: body), user: identity.uid, remoteAddress: context.remoteAddress, hookReport: report)
        let run: GitHTTPBackend.Run
        do {
            run = try await backend.start(call, clock: clock)
        } catch {
            await slots.release()
            return finish(502, "git http-backend gave no answer: \(error)")
        }
        metrics.request(route: line.route, status: run.head.status)
        // The line is written when the backend ends: its time is the whole answer's.
        let status = run.head.status
        let finished = line
        let ended = Ending(slots: slots, metrics: metrics, logger: logger, clock: clock)
        let pushing = permit
        Task {
            await ended.record(run.ending.value, line: finished, status: status, report: report, started: started)
            withExtendedLifetime(pushing) {}
        }
        var fields = run.head.fields
        fields[HTTPField.Name("X-Request-ID")!] = line.id
        return Response(status: .init(code: status), headers: fields, body: ResponseBody(asyncSequence: run.body))
    }

    // MARK: nginx's auth_request

    /// Answers nginx's `auth_request` subrequest for a request it received: the original path
    /// in `X-Original-URI` (with its query), the token in `Authorization` (passed on by nginx).
    /// 200 with `X-Cairn-User: <uid>` (nginx gives it to `git http-backend` as `REMOTE_USER`)
    /// once the user's repository exists; 401 with the challenge, or 403, with the reason as
    /// the gate decides.
    func authorize(_ request: Request) async -> Response {
        let started = clock()
        var line = RequestLine(id: Self.requestID(), method: request.headers[HTTPField.Name("X-Original-Method")!] ?? "GET")
        let original = request.headers[HTTPField.Name("X-Original-URI")!] ?? ""
        let (path, query) = original.split(separator: "?", maxSplits: 1).map(String.init).splitPathAndQuery()
        if case .success(let read) = GitRequestPath.read(path) { line.route = Self.route(of: read.rest) }
        func finish(_ status: Int, _ message: String, reason: String? = nil, headers: HTTPFields = [:]) -> Response {
            metrics.request(route: "auth-" + line.route, status: status)
            line.log(logger, status: status, seconds: clock() - started, reason: reason)
            return Self.text(status, message, headers: headers)
        }
        switch await gatekeeper.decide(authorization: request.headers[.authorization], path: path, query: query) {
        case .refused(let status, let reason, let message):
            if reason != "path" { metrics.tokenRefused(reason) }
            var headers = HTTPFields()
            if status == 401 { headers[.wwwAuthenticate] = "Basic realm=\"cairn\", charset=\"UTF-8\"" }
            return finish(status, message, reason: reason, headers: headers)
        case .allowed(let identity, let repository):
            line.uid = identity.uid
            if let refusal = anonymousRefusal(identity, repository) {
                metrics.tokenRefused(refusal.reason)
                return finish(403, refusal.message, reason: refusal.reason)
            }
            if let refusal = shardRefusal(repository, query: query) {
                return finish(refusal.status, refusal.message, reason: refusal.reason, headers: Self.retryAfter(5))
            }
            do {
                if repository.uid != nil,
                    try Server.provision(uid: identity.uid, in: options.folder, cairn: options.cairn, schemaSet: options.schemaSet)
                {
                    metrics.provisioned()
                    logger.info("provisioned", metadata: ["request": "\(line.id)", "uid": "\(identity.uid)"])
                }
            } catch {
                return finish(500, "cannot make the repository of \(identity.uid): \(error.message)")
            }
            var headers = HTTPFields()
            headers[HTTPField.Name("X-Cairn-User")!] = identity.uid
            return finish(200, "ok", headers: headers)
        }
    }

    /// Why this shard turns a request away for now (503, to be retried): a user whose
    /// repository is not here and whose bucket another shard owns now, or who moved away; a
    /// push while the user's repository is being copied to another shard. Fetches of a
    /// repository that is here go on.
    func shardRefusal(_ repository: GitRequestPath, query: String?) -> (status: Int, reason: String, message: String)? {
        guard let uid = repository.uid else { return nil }
        let folder = options.folder + "/" + repository.folder
        guard FileSystem.kind(folder) == nil else {
            return GitRequestPath.isWrite(rest: repository.rest, query: query) && PushHold.isHeld(folder)
                ? (503, "held", Self.heldMessage(uid)) : nil
        }
        let admission: ShardFolder.Admission
        do {
            admission = try ShardFolder(options.folder).admission(of: uid)
        } catch {
            return (500, "shard", "cannot tell whether \(uid) belongs on this shard: \(error.message)")
        }
        switch admission {
        case .allowed:
            return nil
        case .notOwned(let bucket):
            return (503, "moving", "user \(uid)'s bucket \(bucket) is served by another shard now; try again shortly")
        case .moved(let shard):
            return (503, "moved", "user \(uid)'s repository moved to \(shard); try again shortly")
        }
    }

    static func heldMessage(_ uid: String) -> String {
        "the repository of \(uid) is being moved to another shard; try again shortly"
    }

    /// Why an anonymous account may not have the repository asked for: its progress, which
    /// does not exist yet and would only be read — no repository is made for an account that
    /// may not push (unless anonymous writes are allowed).
    func anonymousRefusal(_ identity: Identity, _ repository: GitRequestPath) -> (reason: String, message: String)? {
        guard identity.isAnonymous, !options.allowsAnonymousWrites, repository.uid != nil,
            FileSystem.kind(options.folder + "/" + repository.folder) == nil
        else { return nil }
        return (
            TokenRefusal.Reason.anonymousWrite.rawValue,
            "user \(identity.uid) is signed in anonymously and the server keeps no progress of anonymous accounts; sign in, or start the server with --allow-anonymous-writes"
        )
    }

    // MARK: Helpers

    /// What follows the end of a backend: its slot given back, its time and its hooks'
    /// reports counted, and the request's log line, whose time is the whole answer's.
    struct Ending: Sendable {
        let slots: BackendSlots
        let metrics: FrontMetrics
        let logger: Logger
        let clock: @Sendable () -> Double

        func record(_ ending: GitHTTPBackend.Ending, line: RequestLine, status: Int, report: String, started: Double) async {
            await slots.release()
            metrics.backendsRunning.record(await slots.running)
            metrics.backend(seconds: ending.seconds)
            var extra: Logger.Metadata = [:]
            for hook in HookReport.read(from: report) {
                metrics.hook(hook.hook, seconds: hook.seconds)
                if hook.hook == "pre-receive" {
                    metrics.push(refusedRules: hook.refusedRules)
                    extra["push"] =
                        "\(hook.refusedRules.isEmpty ? "accepted" : "refused: " + Set(hook.refusedRules).sorted().joined(separator: ","))"
                }
            }
            _ = try? FileSystem.removeFile(report)
            if !ending.succeeded {
                logger.warning(
                    "git http-backend failed",
                    metadata: ["request": "\(line.id)", "exit": "\(ending.status)", "stderr": "\(ending.stderr.prefix(500))"])
            }
            line.log(logger, status: status, seconds: clock() - started, extra: extra)
        }
    }

    /// The route of a request for the metrics and the log.
    static func route(of rest: String) -> String {
        switch rest {
        case "info/refs": "info-refs"
        case "git-upload-pack": "upload-pack"
        case "git-receive-pack": "receive-pack"
        case "HEAD": "head"
        default: "other"
        }
    }

    /// `Retry-After: seconds`, which a device's sync waits and retries on.
    static func retryAfter(_ seconds: Int) -> HTTPFields {
        var headers = HTTPFields()
        headers[.retryAfter] = String(seconds)
        return headers
    }

    static func tooLarge(_ limit: Int) -> String {
        "the request is larger than the \(limit) bytes this server takes; start it with a larger --max-body"
    }

    /// A short random id (8 hex digits) that names a request in the log and its answer.
    static func requestID() -> String {
        String(UInt32.random(in: .min ... .max), radix: 16).leftPadded(to: 8)
    }

    /// A one-line plain-text answer.
    static func text(_ status: Int, _ message: String, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "text/plain; charset=utf-8"
        return Response(status: .init(code: status), headers: fields, body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }

    static func tlsConfiguration(certificate: String, key: String) throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMFile(certificate).map { NIOSSLCertificateSource.certificate($0) }
        return TLSConfiguration.makeServerConfiguration(
            certificateChain: chain, privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
    }
}

/// The two ports the server listens on, told together once both are known.
final class PortPair: Sendable {
    private let ports = Mutex<(main: Int?, metrics: Int?)>((nil, nil))

    func set(main port: Int) -> (Int, Int)? {
        ports.withLock { ports in
            ports.main = port
            return ports.metrics.map { (port, $0) }
        }
    }

    func set(metrics port: Int) -> (Int, Int)? {
        ports.withLock { ports in
            ports.metrics = port
            return ports.main.map { ($0, port) }
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

extension Array where Element == String {
    /// `[path, query]` or `[path]` as a path and an optional query.
    fileprivate func splitPathAndQuery() -> (String, String?) {
        (first ?? "", count > 1 ? self[1] : nil)
    }
}
