/// A reference the server refused to update: its words, and what they mean when this module
/// knows (``GitError/Reason/init(pushStatus:)``).
public struct PushRejection: Sendable, Hashable {
    /// What the server said (such as `pre-receive hook declined`, `non-fast-forward`).
    public var status: String
    /// Why, when known: ``GitError/Reason/nonFastForward`` for a branch that moved, an
    /// `errno` for a path remote's disk; nil for the server's own rules.
    public var reason: GitError.Reason?

    public init(status: String, reason: GitError.Reason?) {
        self.status = status
        self.reason = reason
    }

    /// The rejection of a status the server sent, with its reason read from it.
    public init(status: String) {
        self.init(status: status, reason: GitError.Reason(pushStatus: status))
    }
}
