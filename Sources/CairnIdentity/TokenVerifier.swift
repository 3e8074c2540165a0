import CairnCore
import CairnMerge
import Dispatch
import JWTKit
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Verifies the ID tokens devices send with the keys of their identity provider: the form
/// (``TokenForm``), the algorithm (RS256 or ES256, the one the key is for), the key (by its
/// ID, never another in its place), the signature (jwt-kit, over swift-crypto), then the
/// claims — `iss`, `aud`, `exp`, `nbf` and `iat` with the options' leeway, and the uid claim.
///
/// The key set is read once at the start and kept. A token naming a key ID the set lacks reads
/// the set again — at most once per ``IdentityOptions/refetchInterval`` — so a provider's key
/// rotation needs no restart; when the set cannot be read then, the keys held stay and a
/// warning is logged.
public actor TokenVerifier {
    public let options: IdentityOptions
    private var keys: ProviderKeys
    private var fetchedAt: Double
    private let fetch: @Sendable (KeySetSource) async throws(CairnError) -> [UInt8]
    private let now: @Sendable () -> Double
    private let logger: Logger

    /// Reads the key set of `options` and returns a verifier for it. A key set that cannot be
    /// read, is not JSON or holds no usable key is refused in one line.
    public static func start(
        _ options: IdentityOptions, logger: Logger = Logger(label: "cairn.identity"),
        now: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        fetch: @escaping @Sendable (KeySetSource) async throws(CairnError) -> [UInt8] = TokenVerifier.read
    )
        async throws(CairnError) -> TokenVerifier
    {
        let keys = try await ProviderKeys.read(try await fetch(options.keySet), from: options.keySet.description)
        return TokenVerifier(options: options, keys: keys, fetchedAt: now(), fetch: fetch, now: now, logger: logger)
    }

    private init(
        options: IdentityOptions, keys: ProviderKeys, fetchedAt: Double,
        fetch: @escaping @Sendable (KeySetSource) async throws(CairnError) -> [UInt8],
        now: @escaping @Sendable () -> Double, logger: Logger
    ) {
        self.options = options
        self.keys = keys
        self.fetchedAt = fetchedAt
        self.fetch = fetch
        self.now = now
        self.logger = logger
    }

    /// The key IDs held now.
    public var keyIDs: [String] { keys.algorithms.keys.sorted() }

    /// Who `token` says the bearer is, or why it is refused.
    public func verify(_ token: String) async -> Result<Identity, TokenRefusal> {
        do {
            return .success(try await identity(of: token))
        } catch {
            return .failure(error)
        }
    }

    private func identity(of token: String) async throws(TokenRefusal) -> Identity {
        let form = try TokenForm(token, maxBytes: options.maxTokenBytes)
        guard case .string(let algorithm)? = form.header["alg"], ["RS256", "ES256"].contains(algorithm) else {
            throw TokenRefusal(
                .algorithm,
                "the token's algorithm is \(form.header["alg"]?.inlineText ?? "not given"); ID tokens are signed with RS256 or ES256")
        }
        guard form.header["crit"] == nil else {
            throw TokenRefusal(.malformed, "the token's header has \"crit\" extensions, which this server does not read")
        }
        guard case .string(let kid)? = form.header["kid"], TokenForm.isKeyID(kid) else {
            throw TokenRefusal(
                .keyID, "the token's kid is \(form.header["kid"] == nil ? "missing" : "not a key ID (letters, digits, - _ . only)")")
        }
        if keys.algorithms[kid] == nil { await refetch() }
        guard let keyAlgorithm = keys.algorithms[kid] else {
            throw TokenRefusal(.unknownKey, "the token's key \(kid) is not in the key set of \(options.keySet)")
        }
        guard keyAlgorithm == algorithm else {
            throw TokenRefusal(.algorithm, "the token says \(algorithm), and key \(kid) is a key for \(keyAlgorithm)")
        }
        do {
            _ = try await keys.collection.verify(token, as: SignedClaims.self)
        } catch {
            throw TokenRefusal(.signature, "the token's signature does not verify with key \(kid)")
        }
        return try claims(form.payload)
    }

    /// The identity the verified claims give, or the claim that is wrong.
    private func claims(_ payload: JSONObject) throws(TokenRefusal) -> Identity {
        guard payload["iss"] == .string(options.issuer) else {
            throw TokenRefusal(.issuer, "the token was issued by \(payload["iss"]?.inlineText ?? "no one named"), not \(options.issuer)")
        }
        let audiences: [JSONValue] = if case .array(let list)? = payload["aud"] { list } else { payload["aud"].map { [$0] } ?? [] }
        guard audiences.contains(.string(options.audience)) else {
            throw TokenRefusal(.audience, "the token is for another audience than \(options.audience)")
        }
        let time = now()
        let leeway = Double(options.leeway)
        guard let expiry = Self.seconds(payload["exp"]) else {
            throw TokenRefusal(.expired, "the token has no expiry (exp)")
        }
        guard time <= expiry + leeway else {
            throw TokenRefusal(.expired, "the token expired \(Int64(time - expiry)) s ago; the app gives a fresh one")
        }
        if let notBefore = payload["nbf"] {
            guard let start = Self.seconds(notBefore), start <= time + leeway else {
                throw TokenRefusal(.notYetValid, "the token is not valid yet (nbf)")
            }
        }
        if let issued = payload["iat"] {
            guard let at = Self.seconds(issued), at <= time + leeway else {
                throw TokenRefusal(.issuedInFuture, "the token was issued in the future (iat)")
            }
        }
        guard case .string(let uid)? = payload[options.uidClaim], !uid.isEmpty else {
            throw TokenRefusal(.uid, "the token has no \(options.uidClaim) claim naming the user")
        }
        do {
            try DocumentID.validate(uid, in: uid)
        } catch {
            throw TokenRefusal(.uid, "the token's \(options.uidClaim) is not a user ID this server keeps: \(error.description)")
        }
        var provider: String?
        if case .string(let said)? = payload["firebase"]?.field("sign_in_provider") { provider = said }
        return Identity(
            uid: uid, isAnonymous: provider == "anonymous", signInProvider: provider,
            expiresAt: Int64(expiry.rounded(.down)))
    }

    /// A NumericDate (RFC 7519 §2): a number of seconds since 1970.
    private static func seconds(_ value: JSONValue?) -> Double? {
        switch value {
        case .integer(let whole)?: Double(whole)
        case .double(let number)? where number.isFinite: number
        default: nil
        }
    }

    /// Reads the key set again, unless it was read less than the refetch interval ago; keeps
    /// the keys held when it cannot.
    private func refetch() async {
        let time = now()
        guard time - fetchedAt >= options.refetchInterval else { return }
        fetchedAt = time
        do {
            keys = try await ProviderKeys.read(try await fetch(options.keySet), from: options.keySet.description)
            logger.info("key set read again", metadata: ["keys": "\(keys.algorithms.keys.sorted().joined(separator: " "))"])
        } catch {
            logger.warning("the key set could not be read again; the keys held stay", metadata: ["error": "\(error.message)"])
        }
    }

    /// Reads a key set from its file or URL (with libcurl, the machine's CA certificates, 10 s
    /// at most).
    public static let read: @Sendable (KeySetSource) async throws(CairnError) -> [UInt8] = { source throws(CairnError) in
        switch source {
        case .file(let path):
            guard let bytes = try FileSystem.read(path) else {
                throw CairnError(.notFound, "the key set \(path) does not exist; give the provider's JWKS file or URL")
            }
            return bytes
        case .url(let url):
            let answer = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(returning: HTTPRequest(method: "GET", url: url, timeout: 10).send())
                }
            }
            switch answer {
            case .success(let (status, body)) where status == 200: return body
            case .success(let (status, _)): throw CairnError(.network, "the key set \(url) answered HTTP \(status)")
            case .failure(let failure): throw CairnError(.network, "cannot read the key set \(url): \(failure.reason)")
            }
        }
    }
}

/// What jwt-kit decodes a verified payload into: nothing, since the claims are read from the
/// one parse of the payload that ``TokenForm`` made (duplicate keys refused).
private struct SignedClaims: JWTPayload {
    init(from decoder: any Decoder) throws {}
    func encode(to encoder: any Encoder) throws {}
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
