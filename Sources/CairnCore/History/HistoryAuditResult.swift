/// What an audit of a history (`cairn verify`) found: how many commits it looked at, every
/// finding (one per rule broken, oldest commit first), and the commits it could not judge.
/// The history is sound as far as it was judged when ``findings`` is empty.
public struct HistoryAuditResult: Sendable, Hashable {
    /// The commits of the range audited.
    public var commits: Int
    /// What was found wrong, oldest commit first; several for one commit when it breaks
    /// several rules.
    public var findings: [AuditFinding]
    /// The commits that could not be judged, one entry per reason.
    public var gaps: [AuditGap]

    public init(commits: Int, findings: [AuditFinding], gaps: [AuditGap] = []) {
        self.commits = commits
        self.findings = findings
        self.gaps = gaps
    }

    /// Whether nothing was found wrong (commits not judged aside).
    public var isSound: Bool { findings.isEmpty }

    /// The commits judged: all but those of ``gaps``.
    public var judged: Int { commits - Set(gaps.flatMap(\.commits)).count }
}
