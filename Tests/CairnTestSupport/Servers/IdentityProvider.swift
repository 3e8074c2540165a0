import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A test's identity provider, as Firebase Auth or an OIDC provider is to an app: its keys
/// (an RSA key `rsa-1` and a P-256 key `ec-1`, and a stranger's key `rsa-9` that its key set
/// does not hold), its key set as a file and, once ``serve()`` is called, over HTTP (Python's
/// `http.server` on 127.0.0.1, stopped by its PID), and the ID tokens it mints — by PyJWT
/// and joserfc (`Tests/Identity/tokens.py`, in the virtual environment of
/// `scripts/git-clients.sh`), never by the library that verifies them.
public final class IdentityProvider: @unchecked Sendable {
    /// The Firebase project the tokens are for: `iss` https://securetoken.google.com/<project>,
    /// `aud` <project>.
    public let project: String
    public var issuer: String { "https://securetoken.google.com/" + project }
    public var audience: String { project }
    public let folder: TemporaryFolder
    /// The key set's file.
    public var keySetFile: String { folder.path + "/jwks.json" }
    private var server: ChildProcess?
    private var port = 0

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/git-clients.sh").path

    /// Makes the keys (and, the first time, the virtual environment: at most 10 minutes).
    public init(project: String = "cairn-tests") throws {
        self.project = project
        folder = TemporaryFolder("cairn-idp")
        let made = try runBounded("/bin/bash", [Self.script, "run", "tokens", "keys", folder.path], limit: 600)
        guard made.status == 0 else {
            throw GitServerStartError(description: "IdentityProvider: the keys could not be made (exit \(made.status)): \(made.stderr)")
        }
    }

    deinit {
        stop()
    }

    /// The claims of a token of `uid` signed in with `provider` (Firebase's
    /// `sign_in_provider`), issued now and valid for an hour, with `changes` applied (a value
    /// of `NSNull()` removes the claim).
    public func claims(_ uid: String, provider: String = "password", changes: [String: Any] = [:]) -> [String: Any] {
        let now = Int(Date().timeIntervalSince1970)
        var claims: [String: Any] = [
            "iss": issuer, "aud": audience, "sub": uid, "user_id": uid, "iat": now, "auth_time": now, "exp": now + 3600,
            "firebase": ["sign_in_provider": provider, "identities": [String: Any]()],
        ]
        for (key, value) in changes {
            claims[key] = value is NSNull ? nil : value
        }
        return claims
    }

    /// A token over `claims`; `options` as tokens.py takes them (`--alg ES256`, `--kid`,
    /// `--key stranger`, `--forge none`, …).
    public func token(_ claims: [String: Any], _ options: [String] = []) throws -> String {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys]), as: UTF8.self)
        let minted = try runBounded("/bin/bash", [Self.script, "run", "tokens", "mint", folder.path, json] + options, limit: 120)
        guard minted.status == 0 else {
            throw GitServerStartError(description: "IdentityProvider: no token (exit \(minted.status)): \(minted.stderr)")
        }
        return minted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A valid token of `uid`.
    public func token(for uid: String, provider: String = "password", _ options: [String] = []) throws -> String {
        try token(claims(uid, provider: provider), options)
    }

    /// Serves the folder (the key set at `/jwks.json`) on a free port of 127.0.0.1 and returns
    /// the key set's URL; waits (at most 10 s) until it answers.
    public func serve() throws -> String {
        if let server, server.isRunning { return keySetURL }
        for _ in 0..<5 {
            let port = try Loopback.freePort()
            let process = try Loopback.start(
                "/usr/bin/python3", ["-m", "http.server", "--bind", "127.0.0.1", "--directory", folder.path, String(port)],
                console: folder.path + "/http.log")
            let deadline = Date() + 10
            while process.isRunning, !Loopback.canConnect(port: port), Date() < deadline { usleep(20_000) }
            if Loopback.canConnect(port: port) {
                self.server = process
                self.port = port
                return keySetURL
            }
            Loopback.terminate(process)
        }
        throw GitServerStartError(description: "IdentityProvider: http.server did not answer")
    }

    /// The key set's URL while ``serve()`` serves it.
    public var keySetURL: String { "http://127.0.0.1:\(port)/jwks.json" }

    /// Stops serving the key set (a provider that stops answering); the keys stay.
    public func stop() {
        if let server { Loopback.terminate(server) }
        server = nil
    }

    /// The provider rotates its keys: a new key, `rsa-2` (mint with `--key rotated`), joins
    /// its key set, as providers publish the next key before they sign with it.
    public func rotate() throws {
        let made = try runBounded("/bin/bash", [Self.script, "run", "tokens", "rotate", folder.path], limit: 120)
        guard made.status == 0 else { throw GitServerStartError(description: "IdentityProvider: \(made.stderr)") }
    }
}
