import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TLS server on a free port of 127.0.0.1 showing a certificate it signed itself for
/// `localhost` (valid a day), which no machine's CA certificates vouch for: OpenSSL's own
/// test server (`openssl s_server -www`), with a key and a certificate made for it in
/// `folder`. It completes real handshakes and answers HTTP requests with a status page, not
/// git. Reach it as `https://localhost:<port>` (mbedTLS, libgit2's TLS library here, matches
/// names, not IP addresses). Stopped by its PID when it is released.
public final class SelfSignedTLSServer: Sendable {
    public let port: Int
    /// The certificate (PEM), for a client that is to trust this server.
    public let certificate: String
    private let process: ChildProcess
    static let openssl = "/usr/bin/openssl"

    public init(in folder: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let key = folder + "/key.pem"
        certificate = folder + "/certificate.pem"
        let made = try runProcess(
            Self.openssl,
            [
                "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost", "-keyout", key, "-out", certificate,
            ])
        guard made.status == 0 else {
            throw GitServerStartError(description: "SelfSignedTLSServer: openssl req failed: \(made.stderr)")
        }
        let console = folder + "/console.log"
        for tries in 1...5 {
            let port = try Loopback.freePort()
            let process = try Loopback.start(
                Self.openssl,
                [
                    "s_server", "-accept", "127.0.0.1:\(port)", "-cert", certificate,
                    "-key", key, "-www",
                ], console: console)
            // s_server prints ACCEPT once it has bound the port, so a connection is to it.
            let serving = try Loopback.waitUntilServing(
                process, port: port, name: "SelfSignedTLSServer: openssl s_server", lastTry: tries == 5,
                log: { (try? String(contentsOfFile: console, encoding: .utf8)) ?? "" }, bound: { $0.contains("ACCEPT") })
            if serving {
                self.port = port
                self.process = process
                return
            }
        }
        throw GitServerStartError(description: "SelfSignedTLSServer: no free port in 5 tries")
    }

    deinit { Loopback.terminate(process) }
}
