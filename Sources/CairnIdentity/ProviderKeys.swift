import CairnCore
import CairnMerge
import JWTKit

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The signing keys of an identity provider, read from its JSON Web Key Set (RFC 7517): its
/// RSA keys (for RS256) and P-256 keys (for ES256), each by its key ID. Keys of other kinds,
/// or without a key ID, are passed over: a token names the key that signed it, and no key is
/// ever tried in its place.
struct ProviderKeys: Sendable {
    /// The kind of each key, by key ID: what a token signed with it must say its algorithm is.
    let algorithms: [String: String]
    /// The same keys, as jwt-kit verifies with them.
    let collection: JWTKeyCollection

    /// Reads the key set `bytes` (from `source`, named in messages). Refused, in one line,
    /// when it is not a key set or holds no key Cairn verifies with.
    static func read(_ bytes: [UInt8], from source: String) async throws(CairnError) -> ProviderKeys {
        let value: JSONValue
        do {
            value = try JSONParser(limits: .documents).parse(bytes)
        } catch {
            throw CairnError(
                .invalidInput, "the key set \(source) is not JSON (\(error.description)); give the provider's JWKS", cause: error)
        }
        guard case .array(let entries)? = value.field("keys") else {
            throw CairnError(.invalidInput, "the key set \(source) has no \"keys\" array; give the provider's JWKS (a JSON Web Key Set)")
        }
        let collection = JWTKeyCollection()
        var algorithms: [String: String] = [:]
        var passedOver: [String] = []
        for entry in entries {
            guard case .string(let kid)? = entry.field("kid"), TokenForm.isKeyID(kid) else {
                passedOver.append("a key without a usable kid")
                continue
            }
            let kind = entry.field("kty"), curve = entry.field("crv"), stated = entry.field("alg")
            let algorithm: String
            switch (kind, curve) {
            case (.string("RSA")?, _): algorithm = "RS256"
            case (.string("EC")?, .string("P-256")?): algorithm = "ES256"
            default:
                passedOver.append("key \(kid) of another kind")
                continue
            }
            if let stated, stated != .string(algorithm) {
                passedOver.append("key \(kid) for \(stated.inlineText)")
                continue
            }
            do {
                let jwk = try JSONDecoder().decode(JWK.self, from: Data(entry.canonicalBytes()))
                try await collection.add(jwk: jwk)
                algorithms[kid] = algorithm
            } catch {
                passedOver.append("key \(kid), which does not read (\(error))")
            }
        }
        guard !algorithms.isEmpty else {
            let why = passedOver.isEmpty ? "it is empty" : passedOver.prefix(3).joined(separator: "; ")
            throw CairnError(
                .invalidInput, "the key set \(source) holds no key to verify ID tokens with (an RSA or P-256 key with a kid): \(why)")
        }
        // No key stands in for another: a token whose key ID is not here is refused.
        _ = await collection.clearDefault()
        return ProviderKeys(algorithms: algorithms, collection: collection)
    }
}
