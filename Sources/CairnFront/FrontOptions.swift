import CairnCore
import CairnIdentity
import CairnMerge
import CairnSystem

/// How `cairn server run` serves a deployment: the folder of the users' repositories, where it
/// listens, whom it trusts, and its bounds.
public struct FrontOptions: Sendable {
    /// The folder of the users' repositories (`<uid>.git`), made when missing.
    public var folder: String
    /// Where it listens: 127.0.0.1:8080 by default.
    public var host: String
    public var port: Int
    /// The PEM files of its certificate (chain) and private key, for HTTPS; nil: HTTP.
    public var tls: (certificate: String, key: String)?
    /// The schema set every push is checked against (copied into each repository made), or
    /// nil: the set each store carries.
    public var schemaSet: SchemaSetFiles?
    /// The identity provider whose ID tokens it takes.
    public var identity: IdentityOptions
    /// Whether anonymous accounts may push (seed 000 §9.2 refuses them by default).
    public var allowsAnonymousWrites: Bool
    /// The most `git http-backend` processes at once (twice the processors by default).
    public var maxBackends: Int
    /// How long, in seconds, a request waits for a backend before it is answered 503.
    public var queueTimeout: Double
    /// The largest request body taken, in bytes (a push's pack); larger is answered 413.
    public var maxBodyBytes: Int
    /// Where `/metrics` and `/healthz` are served (never the public address).
    public var metricsHost: String
    public var metricsPort: Int
    /// The operator's secret the administration endpoints ask for (``FrontServer``'s
    /// `/admin/…`, on the metrics address); nil: they are off.
    public var adminSecret: [UInt8]?
    /// The `cairn` tool the repositories' hooks run.
    public var cairn: String
    /// git's `http-backend`.
    public var httpBackend: String

    public init(
        folder: String, host: String = "127.0.0.1", port: Int = 8080, tls: (certificate: String, key: String)? = nil,
        schemaSet: SchemaSetFiles? = nil, identity: IdentityOptions, allowsAnonymousWrites: Bool = false,
        maxBackends: Int? = nil, queueTimeout: Double = 10, maxBodyBytes: Int = 100 * 1_048_576,
        metricsHost: String = "127.0.0.1", metricsPort: Int = 9464, adminSecret: [UInt8]? = nil, cairn: String,
        httpBackend: String = "/usr/lib/git-core/git-http-backend"
    ) {
        self.folder = folder
        self.host = host
        self.port = port
        self.tls = tls
        self.schemaSet = schemaSet
        self.identity = identity
        self.allowsAnonymousWrites = allowsAnonymousWrites
        self.maxBackends = max(1, maxBackends ?? 2 * Syscalls.processorCount())
        self.queueTimeout = queueTimeout
        self.maxBodyBytes = maxBodyBytes
        self.metricsHost = metricsHost
        self.metricsPort = metricsPort
        self.adminSecret = adminSecret
        self.cairn = cairn
        self.httpBackend = httpBackend
    }
}
