import CairnCore
import Dispatch
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import Synchronization

/// The history view served over HTTP on 127.0.0.1 (never another interface: the pages show
/// a user's progress to whoever can reach them), read-only, with Hummingbird.
///
/// Each page goes out whole, with a Content-Security-Policy that allows nothing but the
/// page's own inline styles and images, so a page fetches nothing from anywhere. A request
/// whose `Host` is not the address served is refused, so a page elsewhere cannot read a
/// store through a name that resolves to this machine.
public struct HistoryServer: Sendable {
    public let site: HistorySite
    /// The port asked for; 0 for any free one.
    public let port: Int

    static let host = "127.0.0.1"
    static let policy =
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'none'; frame-ancestors 'none'; base-uri 'none'"

    public init(site: HistorySite, port: Int) {
        self.site = site
        self.port = port
    }

    /// Serves until the process gets SIGINT or SIGTERM; `ready` is told the port once the
    /// server listens. Throws when it cannot listen (the port is taken).
    public func serve(ready: @escaping @Sendable (Int) -> Void) throws(CairnError) {
        let failure = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        let application = self.application(ready: ready)
        Task {
            do {
                try await application.runService()
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) {
            throw CairnError(.invalidInput, "cannot serve on \(Self.host):\(port): \(error); choose another port with --port", cause: error)
        }
    }

    func application(ready: @escaping @Sendable (Int) -> Void) -> some ApplicationProtocol {
        let router = Router()
        let site = self.site
        // The port listened on, known once the server runs (the one asked for, or the one
        // the system gave for 0).
        let listening = Mutex(port)
        let handler: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, context in
            // The request guard has refused any other name already; checked again here, where
            // the page is drawn.
            guard Self.allows(host: request.head.authority, port: listening.withLock { $0 }) else {
                return Self.response(421, Self.misdirected)
            }
            let page = site.page(at: request.uri.path)
            return Self.response(page.status, page.html, type: "text/html; charset=utf-8")
        }
        router.get("/", use: handler)
        router.get("**", use: handler)
        // Headers of at most 16 KiB: a browser asking for a page sends a few hundred bytes.
        let http1 = HTTP1Channel.Configuration(
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: 16 * 1024, maxHeaderListSize: 16 * 1024,
                maxHeaderFieldCount: 100))
        return Application(
            router: router,
            server: HTTPServerBuilder { responder in GuardedHTTP1Channel(base: HTTP1Channel(responder: responder, configuration: http1)) },
            configuration: .init(address: .hostname(Self.host, port: port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                listening.withLock { $0 = port }
                ready(port)
            },
            logger: Logger(label: "cairn.web"))
    }

    /// Whether a request's `Host` names the server: 127.0.0.1 or localhost, at its port.
    static func allows(host: String?, port: Int) -> Bool {
        guard let host else { return false }
        return host == "\(Self.host):\(port)" || host == "localhost:\(port)"
    }

    /// What a request for another name is told (421).
    static let misdirected = "this server answers only to http://\(host):PORT/ and http://localhost:PORT/"

    /// The headers every answer carries, pages and refusals alike.
    static func commonHeaders(type: String) -> [(String, String)] {
        [("Content-Type", type), ("Content-Security-Policy", policy), ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "no-store")]
    }

    static func response(_ status: Int, _ text: String, type: String = "text/plain; charset=utf-8") -> Response {
        var headers = HTTPFields()
        for (name, value) in commonHeaders(type: type) { headers[HTTPField.Name(name)!] = value }
        return Response(status: .init(code: status), headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
