/// What the remote said about a push. libgit2 returns success even when the server refused a
/// reference: the refusal arrives only here, and the caller must treat it as a failure.
public struct PushOutcome: Sendable, Hashable {
    /// Each refused reference with the server's words (such as `pre-receive hook declined`)
    /// and what they mean.
    public var rejections: [String: PushRejection]
    /// What the server printed for the user while it received the push (its hooks' output),
    /// one line each, without the `remote:` prefix.
    public var remoteMessages: [String]
    /// Whether the remote already held every reference where the push would set it (a push
    /// that landed before, its answer lost): nothing was sent, as git says
    /// "Everything up-to-date".
    public var alreadyOnRemote: Bool

    public init(rejections: [String: PushRejection] = [:], remoteMessages: [String] = [], alreadyOnRemote: Bool = false) {
        self.rejections = rejections
        self.remoteMessages = remoteMessages
        self.alreadyOnRemote = alreadyOnRemote
    }

    /// Whether every reference was accepted.
    public var accepted: Bool { rejections.isEmpty }
}
