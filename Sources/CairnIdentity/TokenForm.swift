import CairnMerge

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a JWT's compact form must be before anything is verified (RFC 7515 §7.1, RFC 7519):
/// three parts of unpadded base64url, a header and a payload that are JSON objects with no key
/// given twice (a verifier and a parser must never read two different claims out of one
/// token). The signature itself is verified by jwt-kit.
struct TokenForm {
    /// The header and the payload, parsed.
    let header: JSONObject
    let payload: JSONObject

    /// Reads `token`; refused with the reason when it is not a JWT of that form.
    init(_ token: String, maxBytes: Int) throws(TokenRefusal) {
        guard token.utf8.count <= maxBytes else {
            throw TokenRefusal(.tooLarge, "the token is \(token.utf8.count) bytes, over the \(maxBytes) a token may take")
        }
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        // An empty signature is a form (alg none's), refused for its algorithm below.
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw TokenRefusal(.malformed, "the token is not a JWT (three parts joined by dots)")
        }
        var objects: [JSONObject] = []
        for (part, name) in zip(parts.prefix(2), ["header", "payload"]) {
            guard let bytes = Self.base64URLDecoded(part) else {
                throw TokenRefusal(.malformed, "the token's \(name) is not base64url")
            }
            let value: JSONValue
            do {
                value = try JSONParser(limits: .documents).parse(bytes)
            } catch {
                let duplicate = error.description.contains("duplicate key")
                throw TokenRefusal(
                    duplicate ? .duplicateKey : .malformed, "the token's \(name) is not a JSON object as a JWT's is: \(error.description)")
            }
            guard case .object(let object) = value else {
                throw TokenRefusal(.malformed, "the token's \(name) is not a JSON object")
            }
            objects.append(object)
        }
        guard Self.base64URLDecoded(parts[2]) != nil else {
            throw TokenRefusal(.malformed, "the token's signature is not base64url")
        }
        header = objects[0]
        payload = objects[1]
    }

    /// Whether `text` can be a key ID here: 1 to 128 letters, digits, `-`, `_` and `.`, not
    /// only dots — never a path or a URL.
    static func isKeyID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (1...128).contains(bytes.count), bytes.contains(where: { $0 != UInt8(ascii: ".") }) else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ".")
        }
    }

    /// The bytes of unpadded base64url text (RFC 4648 §5); nil for anything else: padding,
    /// the standard alphabet's `+` and `/`, white space, or a length no encoding has. Decoded
    /// by Foundation once the alphabet is checked.
    static func base64URLDecoded(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var standard: [UInt8] = []
        standard.reserveCapacity(text.count + 3)
        for character in text {
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                standard.append(character)
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        while standard.count % 4 != 0 { standard.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(standard)).map { [UInt8]($0) }
    }
}
