/// What `cairn verify` found wrong at one commit of a history: the rule broken and the
/// document, in one line (`commit 1a2b3c4: users/u1/examAttempts/a1 is append-only …`).
public struct AuditFinding: Sendable, Hashable, CustomStringConvertible {
    public var commit: CheckpointID
    /// What is wrong, naming the document (or the file) and the rule.
    public var message: String

    public var description: String {
        "commit \(commit.short): \(message)"
    }
}
