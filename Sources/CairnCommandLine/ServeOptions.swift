import ArgumentParser

/// The options of `cairn server run` and `cairn server auth` (and of `cairn-server`, which
/// they become): the folder, the addresses, the identity provider, the bounds.
package struct ServeOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The folder of the users' repositories (<uid>.git), made when missing.", valueName: "dir"))
    package var folder: String

    @Option(help: ArgumentHelp("Where to listen.", valueName: "host:port"))
    package var listen: String = "127.0.0.1:8080"

    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp("The certificate (chain) to serve HTTPS with, PEM; with --tls-key.", valueName: "file"))
    package var tlsCertificate: String?

    @Option(name: .customLong("tls-key"), help: ArgumentHelp("The certificate's private key, PEM.", valueName: "file"))
    package var tlsKey: String?

    @Option(
        help: ArgumentHelp(
            "Check pushed documents against this schema set, by name or the path of its folder (default: the set each store carries).",
            valueName: "set"))
    package var schema: String?

    @Option(
        help: ArgumentHelp(
            "The Firebase project whose ID tokens to take: sets --issuer https://securetoken.google.com/PROJECT, --audience PROJECT and Google's --jwks.",
            valueName: "project"))
    package var firebaseProject: String?

    @Option(help: ArgumentHelp("The iss the ID tokens carry (an OIDC provider's issuer).", valueName: "iss"))
    package var issuer: String?

    @Option(help: ArgumentHelp("The aud the ID tokens carry (the app's client ID or project).", valueName: "aud"))
    package var audience: String?

    @Option(
        help: ArgumentHelp(
            "The provider's key set: its URL (read again when a token names a key it lacks) or a file.", valueName: "url|file"))
    package var jwks: String?

    @Option(name: .customLong("uid-claim"), help: ArgumentHelp("The claim that holds the user's ID.", valueName: "claim"))
    package var uidClaim: String = "sub"

    @Flag(
        name: .customLong("allow-anonymous-writes"),
        help: "Let anonymous accounts push (firebase.sign_in_provider anonymous); by default they only fetch.")
    package var allowsAnonymousWrites = false

    @Option(
        name: .customLong("max-backends"),
        help: ArgumentHelp("The most git http-backend processes at once (default: twice the processors).", valueName: "n"))
    package var maxBackends: Int?

    @Option(
        name: .customLong("queue-timeout"),
        help: ArgumentHelp("How long a request waits for a backend before it gets 503, in seconds.", valueName: "seconds"))
    package var queueTimeout: Double = 10

    @Option(
        name: .customLong("max-body"), help: ArgumentHelp("The largest request body taken (a push); larger gets 413.", valueName: "size"))
    package var maxBody: String = "100MB"

    @Option(help: ArgumentHelp("Where /metrics and /healthz are served: never the public address.", valueName: "host:port"))
    package var metrics: String = "127.0.0.1:9464"

    @Option(
        name: .customLong("admin-secret-file"),
        help: ArgumentHelp(
            "A file holding the operator's secret: turns on the endpoints that move users between shards (cairn server rebalance), on the metrics address.",
            valueName: "file"))
    package var adminSecretFile: String?

    package init() {}

    package func validate() throws {
        _ = try address(listen, option: "--listen")
        _ = try address(metrics, option: "--metrics")
        guard (tlsCertificate == nil) == (tlsKey == nil) else {
            throw ValidationError("--tls-cert and --tls-key go together: give both, or neither for HTTP")
        }
        if firebaseProject == nil {
            guard issuer != nil, audience != nil, jwks != nil else {
                throw ValidationError(
                    "name the identity provider: --issuer ISS --audience AUD --jwks URL|FILE, or --firebase-project PROJECT")
            }
        }
        if let maxBackends, maxBackends < 1 { throw ValidationError("--max-backends must be 1 or more, not \(maxBackends)") }
        guard queueTimeout >= 0, queueTimeout.isFinite else { throw ValidationError("--queue-timeout must be 0 or more seconds") }
    }

    /// `host:port` read; the host may be a name, an IPv4 address or `[IPv6]`.
    package func address(_ text: String, option: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("\(option) takes HOST:PORT (127.0.0.1:8080), not \(text)")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("\(option) takes HOST:PORT (127.0.0.1:8080), not \(text)") }
        return (host, port)
    }

    /// The options again, as a command line (for the program they are handed to).
    package var arguments: [String] {
        var arguments = [
            folder, "--listen", listen, "--uid-claim", uidClaim, "--queue-timeout", String(queueTimeout),
            "--max-body", maxBody, "--metrics", metrics,
        ]
        for (name, value) in [
            ("--tls-cert", tlsCertificate), ("--tls-key", tlsKey), ("--schema", schema), ("--firebase-project", firebaseProject),
            ("--issuer", issuer), ("--audience", audience), ("--jwks", jwks), ("--max-backends", maxBackends.map(String.init)),
            ("--admin-secret-file", adminSecretFile),
        ] {
            if let value { arguments += [name, value] }
        }
        if allowsAnonymousWrites { arguments.append("--allow-anonymous-writes") }
        return arguments
    }
}
