/// Why a token was refused, in one line for the log, and as a reason for the metrics.
/// The line never holds the token, nor any of its claims beyond the one it names.
public struct TokenRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of refusal: a short label (`expired`, `signature`, …), the same for every
    /// token refused so.
    public struct Reason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// No token was given.
        public static let missing = Reason(rawValue: "missing")
        /// Longer than the options allow.
        public static let tooLarge = Reason(rawValue: "too-large")
        /// Not three base64url parts, not JSON objects, or an unsupported header.
        public static let malformed = Reason(rawValue: "malformed")
        /// A key repeated in the header or the payload.
        public static let duplicateKey = Reason(rawValue: "duplicate-key")
        /// An algorithm other than RS256 and ES256 (`none`, HS256), or one the key is not for.
        public static let algorithm = Reason(rawValue: "algorithm")
        /// A key ID that is not a key ID (a path, a URL), or none.
        public static let keyID = Reason(rawValue: "key-id")
        /// A key ID the provider's key set does not hold, even fetched again.
        public static let unknownKey = Reason(rawValue: "unknown-key")
        /// The signature does not verify.
        public static let signature = Reason(rawValue: "signature")
        public static let expired = Reason(rawValue: "expired")
        public static let notYetValid = Reason(rawValue: "not-yet-valid")
        public static let issuedInFuture = Reason(rawValue: "issued-in-future")
        public static let issuer = Reason(rawValue: "issuer")
        public static let audience = Reason(rawValue: "audience")
        /// The uid claim is missing, or is not a user ID Cairn allows.
        public static let uid = Reason(rawValue: "uid")
        /// A valid token of another user than the repository's.
        public static let otherUser = Reason(rawValue: "other-user")
        /// An anonymous account writing where anonymous writes are not allowed.
        public static let anonymousWrite = Reason(rawValue: "anonymous-write")
    }

    public var reason: Reason
    /// What was wrong, in one line.
    public var message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }
}
