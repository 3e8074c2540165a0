import CairnCore
import CairnIdentity
import CairnTestSupport
import Foundation
import Logging
import Synchronization
import Testing

/// A server checks the ID tokens that devices send, as Firebase Auth mints them (RS256) and
/// as another OIDC provider might (ES256): the tokens here are minted by PyJWT and joserfc,
/// never by the library that verifies them, and each forgery a client might try is refused
/// with its own reason.
@Suite struct ForgedTokensAreRefusedTests {
    let provider: IdentityProvider
    init() throws { provider = try IdentityProvider(project: "exam-app") }

    func verifier(now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 }) async throws -> TokenVerifier {
        try await TokenVerifier.start(
            IdentityOptions(issuer: provider.issuer, audience: provider.audience, keySet: .file(provider.keySetFile)), now: now)
    }

    @Test func aTokenOfEitherAlgorithmIsTheUserItNames() async throws {
        let verifier = try await verifier()
        for options in [[], ["--alg", "ES256"]] {
            let identity = try await verifier.verify(try provider.token(for: "u1", options)).get()
            #expect(identity == Identity(uid: "u1", isAnonymous: false, signInProvider: "password", expiresAt: identity.expiresAt))
        }
        let anonymous = try await verifier.verify(try provider.token(for: "anon-7", provider: "anonymous")).get()
        #expect(anonymous.uid == "anon-7" && anonymous.isAnonymous)
        // Another OIDC provider: no firebase claim, several audiences of which one is ours.
        let oidc = try await verifier.verify(
            try provider.token(provider.claims("u2", changes: ["firebase": NSNull(), "aud": ["other", "exam-app"]]))
        ).get()
        #expect(oidc.uid == "u2" && !oidc.isAnonymous && oidc.signInProvider == nil)
        // Within the minute of skew allowed, either way.
        let now = Int(Date().timeIntervalSince1970)
        let skewed = try provider.token(provider.claims("u1", changes: ["exp": now - 30, "iat": now + 30, "nbf": now + 30]))
        #expect(try await verifier.verify(skewed).get().uid == "u1")
    }

    @Test func everyForgeryIsRefusedForItsOwnReason() async throws {
        let verifier = try await verifier()
        let now = Int(Date().timeIntervalSince1970)
        let cases: [(String, String, TokenRefusal.Reason)] = [
            ("alg none", try provider.token(for: "u1", ["--forge", "none"]), .algorithm),
            ("HS256 keyed with the RSA public key", try provider.token(for: "u1", ["--forge", "hs256"]), .algorithm),
            ("a key the set does not hold", try provider.token(for: "u1", ["--key", "stranger"]), .unknownKey),
            ("a kid holding a path", try provider.token(for: "u1", ["--kid", "../../etc/passwd"]), .keyID),
            ("a kid holding a URL", try provider.token(for: "u1", ["--kid", "https://attacker.example/jwks.json"]), .keyID),
            ("an ES256 token naming the RSA key", try provider.token(for: "u1", ["--alg", "ES256", "--kid", "rsa-1"]), .algorithm),
            ("a valid signature over another payload", try provider.token(for: "u1", ["--forge", "tampered"]), .signature),
            ("expired", try provider.token(provider.claims("u1", changes: ["exp": now - 120])), .expired),
            ("no expiry", try provider.token(provider.claims("u1", changes: ["exp": NSNull()])), .expired),
            ("nbf in the future", try provider.token(provider.claims("u1", changes: ["nbf": now + 600])), .notYetValid),
            ("iat far in the future", try provider.token(provider.claims("u1", changes: ["iat": now + 86_400])), .issuedInFuture),
            (
                "another issuer", try provider.token(provider.claims("u1", changes: ["iss": "https://securetoken.google.com/other-app"])),
                .issuer
            ),
            ("another audience", try provider.token(provider.claims("u1", changes: ["aud": "other-app"])), .audience),
            ("audiences without ours", try provider.token(provider.claims("u1", changes: ["aud": ["a", "b"]])), .audience),
            ("no uid claim", try provider.token(provider.claims("u1", changes: ["sub": NSNull()])), .uid),
            ("a uid Cairn refuses", try provider.token(provider.claims("..")), .uid),
            ("over 16 KB", try provider.token(for: "u1", ["--forge", "big"]), .tooLarge),
            ("malformed base64", try provider.token(for: "u1", ["--forge", "base64"]), .malformed),
            ("a key twice in the header", try provider.token(for: "u1", ["--forge", "duplicate-header"]), .duplicateKey),
            ("a key twice in the payload", try provider.token(for: "u1", ["--forge", "duplicate-payload"]), .duplicateKey),
            ("not a JWT", "not-a-token", .malformed),
            ("two parts", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1MSJ9", .malformed),
        ]
        for (what, token, reason) in cases {
            switch await verifier.verify(token) {
            case .success(let identity):
                Issue.record("\(what): accepted as \(identity.uid)")
            case .failure(let refusal):
                #expect(refusal.reason == reason, "\(what): \(refusal.reason) — \(refusal.message)")
                #expect(!refusal.message.contains(token) && !refusal.message.contains("\n"), "\(what): \(refusal.message)")
            }
        }
    }

    /// The provider publishes a new key and signs with it: the server reads the key set again
    /// when a token names a key it lacks — not more than once a minute, and when the key set no
    /// longer answers it keeps the keys it holds and says so in the log.
    @Test func aRotationIsReadWithoutARestartAtMostOnceAMinute() async throws {
        let url = try provider.serve()
        // The verifier's clock is the test's own: it stands at `start` and moves only when the
        // test moves it, and every token is stamped at `start`. However slowly the machine
        // mints tokens, no real minute passes between two checks.
        let start = Int(Date().timeIntervalSince1970)
        let ahead = Mutex(0.0)
        let stamped = { (options: [String]) throws -> String in
            try self.provider.token(self.provider.claims("u1", changes: ["iat": start, "auth_time": start, "exp": start + 3600]), options)
        }
        let fetches = Mutex(0)
        let logged = LogLines()
        let verifier = try await TokenVerifier.start(
            IdentityOptions(issuer: provider.issuer, audience: provider.audience, keySet: KeySetSource(url)),
            logger: Logger(label: "test") { _ in logged },
            now: { Double(start) + ahead.withLock { $0 } },
            fetch: { source throws(CairnError) in
                fetches.withLock { $0 += 1 }
                return try await TokenVerifier.read(source)
            })
        #expect(fetches.withLock { $0 } == 1)
        #expect(await verifier.keyIDs == ["ec-1", "rsa-1"])

        try provider.rotate()
        let rotated = try stamped(["--key", "rotated"])
        let stranger = try stamped(["--key", "stranger"])
        // Within the minute of the first read: not read again.
        #expect(await (try? verifier.verify(rotated).get()) == nil)
        #expect(fetches.withLock { $0 } == 1)
        ahead.withLock { $0 += 61 }
        #expect(try await verifier.verify(rotated).get().uid == "u1")
        #expect(fetches.withLock { $0 } == 2)
        // A stream of unknown key IDs reads it once a minute at most.
        for _ in 0..<5 { _ = await verifier.verify(stranger) }
        #expect(fetches.withLock { $0 } == 2)

        // The key set stops answering: the keys held stay, and a warning says why.
        provider.stop()
        ahead.withLock { $0 += 61 }
        _ = await verifier.verify(stranger)
        #expect(fetches.withLock { $0 } == 3)
        #expect(try await verifier.verify(rotated).get().uid == "u1")
        #expect(
            logged.lines.contains { $0.hasPrefix("warning the key set could not be read again; the keys held stay") }, "\(logged.lines)")
    }

    @Test func aKeySetThatCannotServeStopsTheStartInOneLine() async throws {
        let folder = TemporaryFolder("cairn-jwks")
        let cases: [(String, String?, String)] = [
            ("not JSON", "{\"keys\": [", "is not JSON"),
            ("no keys array", "{\"key\": []}", "has no \"keys\" array"),
            ("only a secret", #"{"keys": [{"kty": "oct", "kid": "h1", "k": "c2VjcmV0"}]}"#, "holds no key to verify ID tokens with"),
            (
                "an RSA key for HS256", #"{"keys": [{"kty": "RSA", "kid": "r1", "alg": "HS256", "n": "AQAB", "e": "AQAB"}]}"#,
                "holds no key to verify ID tokens with"
            ),
            ("no file", nil, "does not exist"),
        ]
        for (what, text, phrase) in cases {
            let file = folder.path + "/\(what).json"
            if let text { try text.write(toFile: file, atomically: true, encoding: .utf8) }
            do {
                _ = try await TokenVerifier.start(IdentityOptions(issuer: "i", audience: "a", keySet: .file(file)))
                Issue.record("\(what): started")
            } catch {
                #expect(error.message.contains(phrase) && !error.message.contains("\n"), "\(what): \(error.message)")
            }
        }
    }
}

/// A log handler that keeps `level message` lines, for a test to read.
final class LogLines: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    var lines: [String] { lock.withLock { kept } }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lock.withLock { kept.append("\(event.level) \(event.message)") }
    }
}
