import Foundation

/// An identity provider for the serving benchmark: an RSA key made by openssl, its key set as
/// a provider publishes it, and ID tokens it signs (RS256, shaped as Firebase Auth's), signed
/// by openssl too — not by the library that verifies them.
struct TestIssuer {
    let folder: String
    static let audience = "bench-app"
    static let issuer = "https://securetoken.google.com/bench-app"

    var keySet: String { folder + "/jwks.json" }
    var key: String { folder + "/key.pem" }

    init(folder: String, environment: [String: String]) throws {
        self.folder = folder
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Command(
            "/usr/bin/openssl", ["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", folder + "/key.pem"],
            environment: environment
        ).run()
        let modulus = try Command("/usr/bin/openssl", ["rsa", "-in", folder + "/key.pem", "-noout", "-modulus"], environment: environment)
            .run()
        let hex = modulus.split(separator: "=").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? ""
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        let set = #"{"keys":[{"kty":"RSA","kid":"bench-1","alg":"RS256","use":"sig","n":"\#(Self.base64URL(bytes))","e":"AQAB"}]}"#
        try set.write(toFile: keySet, atomically: true, encoding: .utf8)
    }

    /// An ID token of `uid`, valid for two hours.
    func token(_ uid: String) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        let header = Self.base64URL(Array(#"{"alg":"RS256","kid":"bench-1","typ":"JWT"}"#.utf8))
        let payload = Self.base64URL(
            Array(
                #"{"iss":"\#(Self.issuer)","aud":"\#(Self.audience)","sub":"\#(uid)","iat":\#(now),"exp":\#(now + 7200),"firebase":{"sign_in_provider":"password"}}"#
                    .utf8))
        let input = folder + "/signing-input"
        try (header + "." + payload).write(toFile: input, atomically: true, encoding: .utf8)
        let signature = folder + "/signature"
        try Command("/usr/bin/openssl", ["dgst", "-sha256", "-sign", key, "-out", signature, input]).run()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: signature)))
        return header + "." + payload + "." + Self.base64URL(bytes)
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
