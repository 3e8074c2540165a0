import CairnMerge
import Git
import GitFormat

extension Store {
    /// Audits the store's history (see `HistoryAudit`): every commit of `range` — `A..B`, or
    /// one revision and all that leads to it — against its parent, and every merge against its
    /// parents merged again. Reads the repository through a handle of its own, which keeps
    /// what merging again writes in memory: it writes nothing, and takes no lock.
    public func verify(_ range: String = "HEAD", checked: (Int, Int) -> Void = { _, _ in }) throws(CairnError) -> HistoryAuditResult {
        let reader: Repository
        do {
            reader = try Repository(openingAt: repository.gitdir, checkingPacks: false)
            try reader.keepNewObjectsInMemory()
        } catch {
            throw CairnError.git(error, doing: "cannot verify the history")
        }
        return try Self.audit(HistoryAudit(repository: reader, uid: uid, codec: codec), range: range, checked: checked)
    }

    /// Audits the history of the repository at `gitdir`: a server's bare repository (made by
    /// `cairn server init`), or a store's `.git` folder, whose user is its `cairn.uid`, else
    /// its folder's name without `.git`. What merging again writes is kept in memory: the
    /// repository is left as it was, whoever runs the audit.
    ///
    /// An encrypted store's documents are opened with `keys` where it holds their key; the
    /// commits whose documents it cannot open are named as not judged (``AuditGap``), and so
    /// are its merges when no key is given, which are checked as sealed, as a server checks
    /// them.
    public static func verifyRepository(
        at gitdir: String, range: String = "HEAD", keys: Keyring? = nil,
        checked: (Int, Int) -> Void = { _, _ in }
    ) throws(CairnError) -> HistoryAuditResult {
        let repository: Repository
        do {
            repository = try Repository(openingAt: gitdir)
        } catch {
            if error.isDamage { throw CairnError.damaged(error, doing: "cannot open \(gitdir)") }
            throw CairnError(.notFound, "\(gitdir) is not a git repository: \(error.message)", cause: error)
        }
        do { try repository.keepNewObjectsInMemory() } catch { throw CairnError.git(error, doing: "cannot verify \(gitdir)") }
        let uid = repository.progressOwner
        // A store is encrypted or plain from its creation: its tip says which.
        var codec: DocumentCodec?
        if let keys {
            let tip = try translatingGitErrors("cannot read \(gitdir)") { try repository.reference("HEAD") }
            let encrypted =
                try tip.map { tip throws(CairnError) in
                    try translatingGitErrors("cannot read \(gitdir)") {
                        try PushRules.audit(repository, uid: uid, codec: nil).marksEncrypted(repository.commit(tip).treeID)
                    }
                } ?? false
            codec = encrypted ? DocumentCodec(cipher: DocumentCipher(keyring: keys)) : nil
        }
        return try audit(HistoryAudit(repository: repository, uid: uid, codec: codec), range: range, checked: checked)
    }

    /// Audits the history of the store in `folder` with the keys `configuration` gives (else
    /// those of the store's own key file), without opening the store: for a device that holds
    /// some of an encrypted store's keys and not the one it is sealed with now (a rotation it
    /// has not been given). What those keys open is judged; the rest is named as not judged.
    public static func verifyStore(
        at folder: String, range: String = "HEAD", configuration: Configuration,
        checked: (Int, Int) -> Void = { _, _ in }
    ) throws(CairnError) -> HistoryAuditResult {
        let gitdir = folder + "/.git"
        let keys = try translatingGitErrors("cannot read \(gitdir)") { () throws -> Keyring? in
            try keyring(configuration: configuration, repository: Repository(openingAt: gitdir))
        }
        return try verifyRepository(at: gitdir, range: range, keys: keys, checked: checked)
    }

    /// Whether the repository at `gitdir` (bare, or a store's `.git`) holds a store's history,
    /// which ``verifyRepository(at:range:keys:checked:)`` audits: its `HEAD` has a store's
    /// identity file. False for what cannot be opened.
    package static func holdsProgress(gitdir: String) -> Bool {
        (try? Repository(openingAt: gitdir))?.holdsProgress ?? false
    }

    private static func audit(_ audit: HistoryAudit, range: String, checked: (Int, Int) -> Void) throws(CairnError) -> HistoryAuditResult {
        let commits = try audit.commits(in: range)
        return try audit.audit(of: commits) { checked($0, commits.count) }
    }

    private static func translatingGitErrors<T>(_ doing: String, _ body: () throws -> T) throws(CairnError) -> T {
        do {
            return try body()
        } catch let error as CairnError {
            throw error
        } catch let error as GitError {
            if error.isDamage { throw CairnError.damaged(error, doing: doing) }
            throw CairnError.git(error, doing: doing)
        } catch {
            throw CairnError(.io, "\(doing): \(error)")
        }
    }
}
