/// Commits of an audited history that the audit could not judge, all for one reason: their
/// documents are sealed with a key the reader lacks, or they are merges of an encrypted store
/// that only its key can merge again. Not a finding — nothing is known to be wrong — and not
/// passed in silence either: `cairn verify` says so in one line.
public struct AuditGap: Sendable, Hashable, CustomStringConvertible {
    /// Why they could not be judged, and what would judge them.
    public var reason: String
    /// The commits, oldest first.
    public var commits: [CheckpointID]

    public init(reason: String, commits: [CheckpointID]) {
        self.reason = reason
        self.commits = commits
    }

    /// `2 commits not judged (1a2b3c4, 5d6e7f8): …`, naming at most three of them.
    public var description: String {
        let shown = commits.prefix(3).map(\.short).joined(separator: ", ") + (commits.count > 3 ? ", …" : "")
        return "\(commits.count) commit\(commits.count == 1 ? "" : "s") not judged (\(shown)): \(reason)"
    }
}
