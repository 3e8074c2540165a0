import Foundation

/// The token a request carries, and the user name it came with: as the password of HTTP basic
/// authentication, the user name being the uid (how git hosts take tokens, so that plain git
/// with a credential helper works), or as `Authorization: Bearer`.
struct PresentedToken: Sendable {
    /// The user name of basic authentication; nil for a bearer token.
    let username: String?
    let token: String

    /// Reads the `Authorization` header; nil when there is none or it is neither scheme.
    init?(authorization: String?) {
        guard let authorization else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2 else { return nil }
        let scheme = parts[0].lowercased(), value = parts[1].trimmingCharacters(in: .whitespaces)
        switch scheme {
        case "bearer":
            guard !value.isEmpty else { return nil }
            (username, token) = (nil, value)
        case "basic":
            guard let decoded = Data(base64Encoded: value).flatMap({ String(data: $0, encoding: .utf8) }),
                let colon = decoded.firstIndex(of: ":")
            else { return nil }
            let password = String(decoded[decoded.index(after: colon)...])
            guard !password.isEmpty else { return nil }
            (username, token) = (String(decoded[..<colon]), password)
        default:
            return nil
        }
    }
}
