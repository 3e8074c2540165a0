import CairnMerge
import Git
import GitFormat

extension Store {
    /// Audits the store's history (see ``HistoryAudit``): every commit of `range` — `A..B`, or
    /// one revision and all that leads to it — against its parent, and every merge against its
    /// parents merged again. The commits checked and what was found, oldest first. Holds the
    /// store's lock (merging again writes objects, which nothing will point to); changes no
    /// document and no reference.
    public func verify(_ range: String = "HEAD", checked: (Int, Int) -> Void = { _, _ in }) throws(CairnError)
        -> (commits: Int, findings: [AuditFinding]) {
        try locked("cannot verify the history") { () throws -> (commits: Int, findings: [AuditFinding]) in
            let audit = HistoryAudit(repository: repository, uid: uid, codec: codec)
            let commits = try audit.commits(in: range)
            return (commits.count, try audit.findings(of: commits) { checked($0, commits.count) })
        }
    }

    /// Audits the history of a server's bare repository at `gitdir` (made by `cairn server
    /// init`), whose user is its `cairn.uid`, else its folder's name without `.git`. An
    /// encrypted store's documents are checked as sealed and its merges not at all. The merges
    /// made again leave loose objects that nothing points to (git's gc removes them), never a
    /// pack beside those git serves.
    public static func verifyRepository(at gitdir: String, range: String = "HEAD", checked: (Int, Int) -> Void = { _, _ in })
        throws(CairnError) -> (commits: Int, findings: [AuditFinding]) {
        let repository: Repository
        do {
            repository = try Repository(openingAt: gitdir)
        } catch {
            if error.isDamage { throw CairnError.damaged(error, doing: "cannot open \(gitdir)") }
            throw CairnError(.notFound, "\(gitdir) is not a git repository: \(error.message)", cause: error)
        }
        repository.packsWrites = false
        var name = FileSystem.lastComponent(of: gitdir.hasSuffix("/") ? String(gitdir.dropLast()) : gitdir)
        if name.hasSuffix(".git") { name.removeLast(4) }
        let uid = ((try? repository.config("cairn.uid")) ?? nil).flatMap { $0.isEmpty ? nil : $0 } ?? name
        let audit = HistoryAudit(repository: repository, uid: uid, codec: nil)
        let commits = try audit.commits(in: range)
        return (commits.count, try audit.findings(of: commits) { checked($0, commits.count) })
    }
}
