/// What a server trusts an ID token for: the provider that issued it (`iss`), the app it was
/// issued to (`aud`), where the provider's keys are, and which claim names the user.
///
/// Firebase Auth is the first case: `iss` is `https://securetoken.google.com/<project>`,
/// `aud` the project, `sub` the user's UID, and the keys are Google's JWKS
/// (`https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com`).
/// Any OpenID Connect provider is the second: its `issuer` and `jwks_uri`, and the client ID
/// the app signs in with.
public struct IdentityOptions: Sendable, Hashable {
    /// The `iss` a token must carry, exactly.
    public var issuer: String
    /// The `aud` a token must carry (as its one audience, or among several).
    public var audience: String
    /// Where the provider's signing keys are.
    public var keySet: KeySetSource
    /// The claim that holds the user's ID (`sub` by default); it must be the user of the
    /// repository asked for.
    public var uidClaim: String
    /// The clock skew allowed on `exp`, `nbf` and `iat`, in seconds.
    public var leeway: Int64
    /// The longest token read, in bytes: a JWT of an ID token is one or two kilobytes.
    public var maxTokenBytes: Int
    /// How long, in seconds, after fetching the keys an unknown key ID may fetch them again:
    /// a provider that rotates its keys needs no restart, and a stream of forged key IDs
    /// costs at most one fetch a minute.
    public var refetchInterval: Double

    public init(
        issuer: String, audience: String, keySet: KeySetSource, uidClaim: String = "sub", leeway: Int64 = 60,
        maxTokenBytes: Int = 16 * 1024, refetchInterval: Double = 60
    ) {
        self.issuer = issuer
        self.audience = audience
        self.keySet = keySet
        self.uidClaim = uidClaim
        self.leeway = leeway
        self.maxTokenBytes = maxTokenBytes
        self.refetchInterval = refetchInterval
    }

    /// Firebase Auth's options for the project `project`, its keys from `keySet` (Google's
    /// JWKS URL by default).
    public static func firebase(project: String, keySet: KeySetSource = .url(firebaseKeys)) -> IdentityOptions {
        IdentityOptions(issuer: "https://securetoken.google.com/" + project, audience: project, keySet: keySet)
    }

    /// Where Google publishes the keys of Firebase Auth's ID tokens.
    public static let firebaseKeys = "https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
}

/// Where a provider's JSON Web Key Set is read from.
public enum KeySetSource: Sendable, Hashable, CustomStringConvertible {
    /// A file on this machine (read again when an unknown key ID is seen).
    case file(String)
    /// An `http://` or `https://` URL.
    case url(String)

    /// `--jwks`'s value: a URL when it starts with `http://` or `https://`, else a file.
    public init(_ text: String) {
        let lowered = text.lowercased()
        self = lowered.hasPrefix("http://") || lowered.hasPrefix("https://") ? .url(text) : .file(text)
    }

    public var description: String {
        switch self {
        case .file(let path): path
        case .url(let url): url
        }
    }
}
