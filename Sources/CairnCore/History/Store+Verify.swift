import CairnMerge
import Git
import GitFormat

extension Store {
    /// Audits the store's history (see ``HistoryAudit``): every commit of `range` — `A..B`, or
    /// one revision and all that leads to it — against its parent, and every merge against its
    /// parents merged again. The commits checked and what was found, oldest first. Reads the
    /// repository through a handle of its own, which keeps what merging again writes in
    /// memory: it writes nothing, and takes no lock.
    public func verify(_ range: String = "HEAD", checked: (Int, Int) -> Void = { _, _ in }) throws(CairnError)
        -> (commits: Int, findings: [AuditFinding]) {
        let reader: Repository
        do {
            reader = try Repository(openingAt: repository.gitdir, checkingPacks: false)
            try reader.keepNewObjectsInMemory()
        } catch {
            throw CairnError.git(error, doing: "cannot verify the history")
        }
        let audit = HistoryAudit(repository: reader, uid: uid, codec: codec)
        let commits = try audit.commits(in: range)
        return (commits.count, try audit.findings(of: commits) { checked($0, commits.count) })
    }

    /// Audits the history of a server's bare repository at `gitdir` (made by `cairn server
    /// init`), whose user is its `cairn.uid`, else its folder's name without `.git`. An
    /// encrypted store's documents are checked as sealed, its merges as any commit (they cannot
    /// be merged again without the key). What merging again writes is kept in memory: the
    /// repository is left as it was, whoever runs the audit.
    public static func verifyRepository(at gitdir: String, range: String = "HEAD", checked: (Int, Int) -> Void = { _, _ in })
        throws(CairnError) -> (commits: Int, findings: [AuditFinding]) {
        let repository: Repository
        do {
            repository = try Repository(openingAt: gitdir)
        } catch {
            if error.isDamage { throw CairnError.damaged(error, doing: "cannot open \(gitdir)") }
            throw CairnError(.notFound, "\(gitdir) is not a git repository: \(error.message)", cause: error)
        }
        do { try repository.keepNewObjectsInMemory() } catch { throw CairnError.git(error, doing: "cannot verify \(gitdir)") }
        let audit = HistoryAudit(repository: repository, uid: repository.progressOwner, codec: nil)
        let commits = try audit.commits(in: range)
        return (commits.count, try audit.findings(of: commits) { checked($0, commits.count) })
    }
}
