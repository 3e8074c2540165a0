import Git

extension Store {
    /// The name of the store's remote in its git configuration, as git itself names it, so
    /// `git fetch`, `git pull` and `git log origin/main` work in a store as they do anywhere.
    static let remoteName = "origin"
    /// The store's branch, as a reference name.
    var branchReference: String { "refs/heads/" + Self.branch }
    /// Where the remote's branch is kept after a fetch.
    static let remoteBranch = "refs/remotes/origin/main"

    /// The remote the store syncs with, or nil when none is set.
    public func remote() throws(CairnError) -> RemoteURL? {
        let stored = try translatingErrors("cannot read the store's configuration") {
            try repository.config("remote.\(Self.remoteName).url")
        }
        return try stored.map { (text) throws(CairnError) in try RemoteURL(text) }
    }

    /// Sets the remote the store syncs with. Only the URL without its password is written;
    /// the branch is set up as git would, so plain `git pull` and `git push` work too.
    public func setRemote(_ remote: RemoteURL) throws(CairnError) {
        try locked("cannot set the remote") {
            try Self.configureRemote(remote, in: repository)
        }
    }

    static func configureRemote(_ remote: RemoteURL, in repository: Repository) throws {
        try repository.setConfig("remote.\(remoteName).url", to: remote.url)
        try repository.setConfig("remote.\(remoteName).fetch", to: "+refs/heads/\(branch):\(remoteBranch)")
        try repository.setConfig("branch.\(branch).remote", to: remoteName)
        try repository.setConfig("branch.\(branch).merge", to: "refs/heads/\(branch)")
    }

    /// The checkpoints not yet on the remote as of the last sync (the offline queue), and the
    /// remote's commits not yet merged here; nil without a remote.
    public func unpushed() throws(CairnError) -> (ahead: Int, behind: Int)? {
        try translatingErrors("cannot compare with the remote") { () throws -> (ahead: Int, behind: Int)? in
            guard try remote() != nil else { return nil }
            guard let head = try repository.reference(branchReference) else { return (0, 0) }
            guard let remote = try repository.reference(Self.remoteBranch) else {
                var count = 0
                try repository.walkHistory(from: head) { _ in
                    count += 1
                    return true
                }
                return (count, 0)
            }
            return try repository.aheadBehind(head, remote)
        }
    }
}
