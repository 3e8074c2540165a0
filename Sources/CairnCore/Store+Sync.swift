import CairnMerge
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Git
import Logging

#if canImport(Glibc)
import Glibc
#endif

extension Store {
    /// Syncs the store with its remote: checkpoints pending writes, fetches, fast-forwards or
    /// merges under the schema set's policies (one merge commit, its conflict records in the
    /// message), updates the working tree, and pushes. When another device pushed first, it
    /// fetches and merges again (bounded, with a growing pause).
    ///
    /// Network failures are tried again on `options.retry`; a refused push, refused
    /// credentials or foreign data fetched end the sync at once. A failed sync leaves the
    /// store on the commit it started from (its checkpoints kept for the next try), with
    /// whatever was fetched.
    public func sync(_ options: SyncOptions = SyncOptions()) throws(CairnError) -> SyncResult {
        guard let remote = try remote() else {
            throw CairnError(.notFound, "the store of user \(uid) has no remote; set one with: cairn remote set URL")
        }
        guard !remote.isReadOnly else {
            throw CairnError(.refused, "\(remote) is a git:// remote: it is read-only and unauthenticated, and Cairn never pushes private progress to it; use an https:// or ssh:// URL or a path")
        }
        let credentials = options.credentials ?? remote.credentials()
        return try locked("cannot sync with \(remote)") { () throws -> SyncResult in
            let checkpoint = try commitPending(message: nil)
            if let commit = checkpoint.commit {
                logger.info("checkpoint", metadata: ["commit": "\(commit.short)", "documents": "\(checkpoint.changes.count)"])
            }
            let start = try repository.reference(branchReference)
            var result = SyncResult(checkpoint: checkpoint)
            do {
                try syncRounds(remote: remote, credentials: credentials, options: options, result: &result)
                return result
            } catch {
                if let now = try? repository.reference(branchReference), let start, now != start {
                    try? moveWorkingTree(from: now, to: start)
                }
                logger.error("sync failed", metadata: ["reason": "\(error)"])
                throw error
            }
        }
    }

    var branchReference: String { "refs/heads/" + Self.branch }

    private func syncRounds(remote: RemoteURL, credentials: Credentials?, options: SyncOptions,
                            result: inout SyncResult) throws {
        var random = SystemRandomNumberGenerator()
        for round in 1...options.pushAttempts {
            result.rounds = round
            let known = try repository.reference(Self.remoteBranch)
            try withNetworkRetries(options, remote) { try fetch(from: remote, credentials: credentials, progress: options.progress) }
            let theirs = try repository.reference(Self.remoteBranch)
            if let theirs, theirs != known {
                do {
                    try checkFetched(theirs)
                } catch {
                    if let known {
                        try? repository.setReference(Self.remoteBranch, to: known, expecting: theirs, message: "cairn: refuse fetched data")
                    } else {
                        try? repository.removeReference(Self.remoteBranch)
                    }
                    throw error
                }
            }
            guard let head = try repository.reference(branchReference) else {
                throw CairnError(.corrupt, "the store of user \(uid) has no commit on \(Self.branch); restore it with cairn clone")
            }
            result.head = head
            if let theirs, theirs != head {
                if try repository.isDescendant(theirs, of: head) {
                    let changed = try repository.differences(among: [repository.commit(head).treeID, repository.commit(theirs).treeID])
                    try moveWorkingTree(from: head, to: theirs)
                    result.integration = .fastForward
                    result.changedFiles = Array(Set(result.changedFiles + changed.map(\.path))).sorted()
                    result.head = theirs
                    logger.info("merge", metadata: ["kind": "fast-forward", "files": "\(changed.count)", "commit": "\(theirs.short)"])
                    return
                }
                if try !repository.isDescendant(head, of: theirs) {
                    let merge = try mergeCommit(head, theirs)
                    try moveWorkingTree(from: head, to: merge.commit)
                    result.integration = .merged(merge.commit)
                    result.conflicts = merge.outcome.conflicts
                    result.changedFiles = Array(Set(result.changedFiles + merge.outcome.changedFromOurs)).sorted()
                    result.head = merge.commit
                    logger.info("merge", metadata: [
                        "commit": "\(merge.commit.short)", "documents": "\(merge.outcome.mergedDocuments)",
                        "files": "\(merge.outcome.changedFromOurs.count)", "conflicts": "\(merge.outcome.conflicts.count)",
                    ])
                }
            }
            guard let local = result.head, local != theirs else { return }
            let sending = try theirs.map { try repository.aheadBehind(local, $0).ahead } ?? countCommits(local)
            let pushed = try withNetworkRetries(options, remote) {
                try push(local, to: remote, expecting: theirs, credentials: credentials, progress: options.progress)
            }
            switch pushed {
            case .accepted:
                try repository.setReference(Self.remoteBranch, to: local, expecting: theirs, message: "cairn: pushed")
                result.pushedCommits = sending
                logger.info("push", metadata: ["commits": "\(sending)", "commit": "\(local.short)", "round": "\(round)"])
                return
            case .behind:
                logger.notice("push refused: the remote moved", metadata: ["round": "\(round)"])
                if round < options.pushAttempts {
                    let pause = min(0.05 * Double(1 << min(round, 6)), 2) * Double.random(in: 0.5...1.5, using: &random)
                    options.sleep(pause)
                }
            case .refused(let reason):
                throw CairnError(.refused, "\(remote) refused the push: \(reason); the store is back on its last checkpoint — fix what it names, then sync again")
            }
        }
        throw CairnError(.busy, "\(remote) kept moving while this store synced (\(options.pushAttempts) rounds): other devices are pushing; sync again")
    }

    /// Runs `body`, trying again on the schedule while it fails for a network reason.
    private func withNetworkRetries<T>(_ options: SyncOptions, _ remote: RemoteURL, _ body: () throws -> T) throws -> T {
        var retry = 0
        while true {
            do {
                return try body()
            } catch let error as CairnError where error.code == .network && retry < options.retry.delays.count {
                let pause = options.retry.delays[retry]
                retry += 1
                logger.warning("network failure", metadata: ["reason": "\(error.message)", "retry": "\(retry)", "pause": "\(pause)"])
                options.willRetry?(error, pause, retry)
                options.sleep(pause)
            }
        }
    }

    private func countCommits(_ tip: ObjectID) throws -> Int {
        var count = 0
        try repository.walkHistory(from: tip) { _ in count += 1; return true }
        return count
    }

    // MARK: Fetch

    /// Fetches the remote's branch into `refs/remotes/origin/main`.
    func fetch(from remote: RemoteURL, credentials: Credentials?,
               progress: (@Sendable (TransferProgress) -> Void)?) throws {
        let started = Date()
        var last: TransferProgress?
        if remote.transport == .path, FileSystem.kind(remote.url) != .folder {
            throw CairnError(.notFound, "cannot fetch from \(remote): there is no repository there; create it with: cairn server init FOLDER UID")
        }
        do {
            let connection = try Remote(repository: repository, url: remote.url)
            try connection.fetch(["+refs/heads/\(Self.branch):\(Self.remoteBranch)"], credentials: credentials) { step in
                last = step
                progress?(step)
            }
        } catch {
            throw Self.remoteFailure(error, remote: remote, credentials: credentials, doing: "fetch from")
        }
        logger.info("fetch", metadata: [
            "objects": "\(last?.objects ?? 0)", "bytes": "\(last?.bytes ?? 0)",
            "ms": "\(Int(Date().timeIntervalSince(started) * 1000))",
        ])
    }

    /// Refuses what a fetch brought if any new commit holds a file a store cannot hold (see
    /// ``StoreTree``), or if the documents that would arrive are not documents.
    func checkFetched(_ theirs: ObjectID) throws {
        let head = try repository.reference(branchReference)
        try Self.checkCommits(in: repository, from: theirs, hiding: head.map { [$0] } ?? [], uid: uid)
        let ours = try head.map { try repository.commit($0).treeID }
        let tree = try repository.commit(theirs).treeID
        for difference in try repository.differences(among: [ours, tree]) {
            guard let entry = difference.entries[1] else { continue }
            if difference.path == Self.identityFile {
                let identity = try? JSONParser().parse(repository.blobContent(entry.id))
                guard case .string(uid)? = identity?.field("uid") else {
                    throw CairnError(.corrupt, "the remote's \(Self.identityFile) names another user than \(uid): it is not this user's progress; nothing was merged")
                }
            }
            guard DocumentPath(fileName: difference.path) != nil else { continue }
            let bytes = try repository.blobContent(entry.id)
            do {
                guard case .object = try JSONParser().parse(bytes) else {
                    throw CairnError(.corrupt, "the remote's \(difference.path) is not a JSON object; nothing was merged")
                }
            } catch let error as JSONParseError {
                throw CairnError(.corrupt, "the remote's \(difference.path) is not a valid document (\(error.description)); nothing was merged", cause: error)
            }
        }
    }

    /// Refuses when a commit reachable from `tip` but not from `hidden` adds a file a store
    /// of `uid` cannot hold.
    static func checkCommits(in repository: Repository, from tip: ObjectID, hiding hidden: [ObjectID], uid: String) throws {
        if let (commit, reason) = try firstRefusal(in: repository, from: tip, hiding: hidden, uid: uid) {
            throw CairnError(.corrupt, "refused commit \(commit.short) from the remote: \(reason); nothing was merged")
        }
    }

    /// The first commit reachable from `tip` but not from `hidden` that adds a file a store of
    /// `uid` cannot hold, with the reason; nil when there is none.
    static func firstRefusal(in repository: Repository, from tip: ObjectID, hiding hidden: [ObjectID],
                             uid: String) throws -> (ObjectID, String)? {
        for id in try repository.commits(from: tip, hiding: hidden) {
            let commit = try repository.commit(id)
            let parentTree = try commit.parentIDs.first.map { try repository.commit($0).treeID }
            for difference in try repository.differences(among: [parentTree, commit.treeID]) {
                guard let entry = difference.entries[1] else { continue }
                if let refusal = StoreTree.refusal(of: difference.components, mode: entry.mode, uid: uid) {
                    return (id, refusal)
                }
            }
        }
        return nil
    }

    // MARK: Merge

    /// Merges `theirs` into `head` and writes the merge commit (no branch moves yet).
    private func mergeCommit(_ head: ObjectID, _ theirs: ObjectID) throws -> (commit: ObjectID, outcome: TreeMerge.Outcome) {
        let outcome = try TreeMerge(repository: repository, schemaSet: schemaSet()).merge(commit: head, with: theirs)
        let incoming = try repository.aheadBehind(theirs, head).ahead
        let signature = signature()
        let commit = try repository.createCommit(
            tree: outcome.tree, parents: [head, theirs],
            message: Self.mergeMessage(incoming: incoming, outcome: outcome),
            author: signature, committer: signature, updating: nil)
        return (commit, outcome)
    }

    /// The trailer key of a conflict record in a merge commit's message.
    static let conflictTrailer = "Cairn-Conflict"

    /// The merge commit's message: a summary line, the records for people, then one trailer
    /// per record (`Cairn-Conflict: {…}`, the whole record as JSON) for `cairn conflicts`.
    static func mergeMessage(incoming: Int, outcome: TreeMerge.Outcome) -> String {
        let count = outcome.conflicts.count
        var text = "Sync: merged \(incoming) checkpoint\(incoming == 1 ? "" : "s") from the remote"
        if outcome.mergedDocuments > 0 {
            text += " (\(outcome.mergedDocuments) document\(outcome.mergedDocuments == 1 ? "" : "s") changed on both sides, \(count) conflict\(count == 1 ? "" : "s") decided)"
        }
        text += "\n"
        guard count > 0 else { return text }
        text += "\nDecided by the policies (the replaced values stay in the parents' history):\n"
        for record in outcome.conflicts {
            text += "  \(record)\n"
        }
        text += "\n"
        for record in outcome.conflicts {
            text += "\(conflictTrailer): \(record.jsonValue.canonicalText.replacingNewlinesCompactly())\n"
        }
        return text
    }

    // MARK: Push

    enum PushResult {
        case accepted
        /// Another device pushed first: fetch and merge again.
        case behind
        case refused(String)
    }

    /// Pushes `local` to the remote's branch, which was `expected` at the last fetch.
    ///
    /// A path remote is written by libgit2 without compare-and-swap, so the push holds a lock
    /// on the bare repository, checks that its branch is still `expected`, and checks after
    /// that it is `local`.
    func push(_ local: ObjectID, to remote: RemoteURL, expecting expected: ObjectID?, credentials: Credentials?,
              progress: (@Sendable (TransferProgress) -> Void)?) throws -> PushResult {
        let refspec = "refs/heads/\(Self.branch):refs/heads/\(Self.branch)"
        func send() throws -> PushOutcome {
            do {
                let connection = try Remote(repository: repository, url: remote.url)
                return try connection.push([refspec], credentials: credentials) { progress?($0) }
            } catch {
                if error.code == .nonFastForward || error.message.contains("not present locally") {
                    return PushOutcome(rejections: ["refs/heads/\(Self.branch)": "non-fast-forward"])
                }
                throw Self.remoteFailure(error, remote: remote, credentials: credentials, doing: "push to")
            }
        }
        let outcome: PushOutcome
        if remote.transport == .path {
            let bareLock = StoreLock(gitdir: remote.url, timeout: lock.timeout, file: "cairn-push.lock")
            outcome = try bareLock.withLock { () throws -> PushOutcome in
                let bare = try Self.openRemoteRepository(remote)
                guard try bare.reference("refs/heads/" + Self.branch) == expected else {
                    return PushOutcome(rejections: ["refs/heads/\(Self.branch)": "non-fast-forward"])
                }
                let outcome = try send()
                if outcome.accepted, try Self.openRemoteRepository(remote).reference("refs/heads/" + Self.branch) != local {
                    throw CairnError(.io, "the push to \(remote) did not land (its branch is not \(local.short)); sync again")
                }
                return outcome
            }
        } else {
            outcome = try send()
        }
        guard let reason = outcome.rejections.values.first else { return .accepted }
        let lowered = reason.lowercased()
        if ["non-fast-forward", "fetch first", "stale info", "failed to lock", "cannot lock", "failed to update ref"]
            .contains(where: lowered.contains) {
            return .behind
        }
        let said = outcome.remoteMessages.filter { $0.hasPrefix("cairn:") }.map { String($0.dropFirst(6).trimmedOfSpaces) }
        return .refused(said.isEmpty ? reason : said.joined(separator: "; "))
    }

    static func openRemoteRepository(_ remote: RemoteURL) throws(CairnError) -> Repository {
        do {
            return try Repository(openingAt: remote.url)
        } catch {
            throw CairnError(.notFound, "there is no repository at \(remote); create it with: cairn server init FOLDER UID", cause: error)
        }
    }

    /// A failure talking to a remote, classified: credentials, network, missing repository.
    static func remoteFailure(_ error: any Error, remote: RemoteURL, credentials: Credentials?, doing what: String) -> CairnError {
        if let error = error as? CairnError { return error }
        guard let error = error as? GitError else { return CairnError(.io, "cannot \(what) \(remote): \(error)") }
        let message = error.message
        if error.code == .auth || message.contains("401") || message.contains("authentication replays") {
            let hint = credentials == nil
                ? "it asks for credentials: set CAIRN_USERNAME and CAIRN_PASSWORD (or put the user in the URL)"
                : "it refused the credentials of \(credentials!.username): check CAIRN_USERNAME and CAIRN_PASSWORD"
            return CairnError(.authentication, "cannot \(what) \(remote): \(hint)", cause: error)
        }
        if message.contains("hostkey") || message.contains("host key") {
            return CairnError(.authentication, "cannot \(what) \(remote): its SSH host key is not in ~/.ssh/known_hosts (or does not match it); check the key and add it (ssh-keyscan), then try again", cause: error)
        }
        if message.contains("403") {
            return CairnError(.authentication, "cannot \(what) \(remote): \(credentials?.username ?? "this user") may not access it (HTTP 403)", cause: error)
        }
        if message.contains("404") || (remote.transport == .path && (message.contains("could not find repository") || message.contains("not a git repository") || message.contains("failed to resolve path"))) {
            return CairnError(.notFound, "cannot \(what) \(remote): there is no repository there; create it with: cairn server init FOLDER UID", cause: error)
        }
        if error.isNetworkFailure || (remote.transport != .path && error.isSystemFailure) {
            return CairnError(.network, "cannot \(what) \(remote): \(message)", cause: error)
        }
        return CairnError(.corrupt, "cannot \(what) \(remote): \(message)", cause: error)
    }
}

extension String {
    /// The text on one line (JSON's newlines and indentation removed).
    func replacingNewlinesCompactly() -> String {
        split(separator: "\n").map { $0.drop { $0 == " " } }.joined()
    }
}
