import Git
import GitFormat

extension Store {
    /// Where `HEAD` is when a git command moved it off the store's branch (`git checkout` of
    /// a commit, `git switch -c`), as words: "detached at 1a2b3c4", "on branch side"; nil
    /// when it is on the store's branch.
    public func headElsewhere() throws(CairnError) -> String? {
        try translatingErrors("cannot read HEAD") { () throws -> String? in
            switch try repository.headTarget() {
            case .branch(let name) where name == branchReference:
                return nil
            case .branch(let name):
                return "on branch \(name.hasPrefix("refs/heads/") ? String(name.dropFirst(11)) : name)"
            case .detached(let id):
                return "detached at \(id.short)"
            }
        }
    }

    /// Refuses to write while `HEAD` is not on the store's branch: a checkpoint would commit
    /// to one branch while the working tree and the index belong to another.
    /// With `trustingStamp` (a put or a delete, which only writes documents), `HEAD` is read
    /// again only when its stamp changed since it was last found on the branch (one `stat`
    /// instead of libgit2's four calls); a stamp that changed in the last second is not
    /// trusted, as for documents (see ``FileStamp/isSettled(seconds:at:)``). A write whose
    /// stamp was wrong (a file system whose `stat` lags behind another machine's write) only
    /// leaves a document pending: what commits, merges or moves the branch always reads `HEAD`.
    func checkHeadOnBranch(_ what: String, trustingStamp: Bool = false) throws(CairnError) {
        let stamp = FileStamp(path: repository.gitdir + "HEAD")
        if trustingStamp, let stamp, stamp == headOnBranchStamp { return }
        headOnBranchStamp = nil
        guard let elsewhere = try headElsewhere() else {
            if let stamp, stamp.isSettled(seconds: 1, at: fileClock()) { headOnBranchStamp = stamp }
            return
        }
        throw CairnError(
            .invalidInput,
            "\(what): HEAD is \(elsewhere), and the progress of \(uid) is on \(Self.branch); go back with: git -C '\(folder)' switch \(Self.branch) — nothing was changed"
        )
    }
}
