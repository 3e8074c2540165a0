/// Who a verified ID token says the bearer is.
public struct Identity: Sendable, Hashable {
    /// The user's ID, from the options' uid claim: a Cairn user ID.
    public var uid: String
    /// Whether the provider's account is anonymous (Firebase's `firebase.sign_in_provider`
    /// is `anonymous`): such a user may read their progress, and writes it only where the
    /// server allows anonymous writes (seed 000 §9.2).
    public var isAnonymous: Bool
    /// How the user signed in, as the provider says (`password`, `google.com`, `anonymous`),
    /// if it says.
    public var signInProvider: String?
    /// When the token expires, in seconds since 1970.
    public var expiresAt: Int64

    public init(uid: String, isAnonymous: Bool, signInProvider: String?, expiresAt: Int64) {
        self.uid = uid
        self.isAnonymous = isAnonymous
        self.signInProvider = signInProvider
        self.expiresAt = expiresAt
    }
}
