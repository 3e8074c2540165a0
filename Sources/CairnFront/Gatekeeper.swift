import CairnIdentity

/// Who may reach which repository, and how: the Firestore rule `request.auth.uid == uid`
/// with ID tokens (shared content: any signed-in user). A request needs a token (else 401, with the challenge git answers with
/// its credentials); a token that does not verify is 401; a valid token of another user than
/// the repository's, or a path that names no repository, is 403; an anonymous account's
/// push is 403 unless anonymous writes are allowed (seed 000 §9.2).
struct Gatekeeper: Sendable {
    let verifier: TokenVerifier
    let allowsAnonymousWrites: Bool

    /// What the gate decided.
    enum Decision: Sendable {
        /// The user, for the repository asked for.
        case allowed(Identity, GitRequestPath)
        /// Refused: the status (401 or 403), and why.
        case refused(status: Int, reason: String, message: String)
    }

    /// The decision for a request with `authorization` on `path` (still percent-encoded,
    /// with `query`).
    func decide(authorization: String?, path: String, query: String?) async -> Decision {
        guard let presented = PresentedToken(authorization: authorization) else {
            return .refused(
                status: 401, reason: TokenRefusal.Reason.missing.rawValue,
                message: "no token: give the app's ID token as the password, with the user ID as the user name")
        }
        let identity: Identity
        switch await verifier.verify(presented.token) {
        case .success(let verified): identity = verified
        case .failure(let refusal): return .refused(status: 401, reason: refusal.reason.rawValue, message: refusal.message)
        }
        let repository: GitRequestPath
        switch GitRequestPath.read(path) {
        case .success(let read): repository = read
        case .failure(let why):
            return .refused(status: 403, reason: "path", message: "the path names no repository of \(identity.uid): \(why)")
        }
        // A user's progress is theirs alone; shared content is read by every signed-in user,
        // and its hook lets only the collection's authors publish.
        if let owner = repository.uid, owner != identity.uid {
            return .refused(
                status: 403, reason: TokenRefusal.Reason.otherUser.rawValue,
                message: "the token is user \(identity.uid)'s, and the repository is \(owner)'s")
        }
        if let username = presented.username, !username.isEmpty, username != identity.uid {
            return .refused(
                status: 403, reason: TokenRefusal.Reason.otherUser.rawValue,
                message: "the user name \(username) is not the token's user \(identity.uid)")
        }
        if identity.isAnonymous, !allowsAnonymousWrites, GitRequestPath.isWrite(rest: repository.rest, query: query) {
            return .refused(
                status: 403, reason: TokenRefusal.Reason.anonymousWrite.rawValue,
                message:
                    "user \(identity.uid) is signed in anonymously and may not push; sign in, or start the server with --allow-anonymous-writes"
            )
        }
        return .allowed(identity, repository)
    }
}
