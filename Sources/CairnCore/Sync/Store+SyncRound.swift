import CairnMerge
import Git
import GitFormat
import Logging

extension Store {
    /// How one round of a sync ended.
    enum SyncRoundEnd {
        /// Pushed, or nothing to push.
        case done
        /// Documents pinned to content that changed hold the push back (``SyncResult/held``).
        case held
        /// Another device pushed first: fetch and merge again.
        case behind
        /// A push tried before fetching would have to send assets first: fetch, then push.
        case fetchFirst
    }

    /// One round of a sync: fetch (unless `fetching` is false: the remote's branch is then
    /// taken as last fetched), take in what came, check what would go out, and push it.
    func syncRound(
        _ round: Int, fetching: Bool, remote: RemoteURL, credentials: Credentials?, options: SyncOptions,
        answers: inout [String: ObjectID?], result: inout SyncResult
    ) throws -> SyncRoundEnd {
        let theirs =
            fetching
            ? try fetchRemoteBranch(from: remote, credentials: credentials, options: options)
            : try repository.reference(Self.remoteBranch)
        guard let head = try repository.reference(branchReference) else {
            throw CairnError(.corrupt, "the store of user \(uid) has no commit on \(Self.branch)", remedy: .cloneStore)
        }
        result.head = CheckpointID(head)
        if let theirs, theirs != head {
            try integrate(theirs, into: head, result: &result)
        }
        // Derived fields another writer left wrong, in what came in or goes out.
        try correctDerivedFields(comparing: [head, theirs], result: &result)
        // Asset pointers another git tool left out, and fields pointing to deleted assets.
        try reconcileAssets(with: theirs, remote: remote, credentials: credentials, options: options, result: &result)
        guard let local = result.head?.objectID, local != theirs else {
            result.pins = []
            try recordHeldPins([])
            return .done
        }
        return try pushRound(
            round, local, over: theirs, fetched: fetching, remote: remote, credentials: credentials, options: options,
            answers: &answers, result: &result)
    }

    /// Fetches the remote's branch and returns it. What the fetch brought is refused, and the
    /// remote's branch as last fetched kept, when a store cannot take it (``checkFetched(_:)``).
    private func fetchRemoteBranch(from remote: RemoteURL, credentials: Credentials?, options: SyncOptions) throws -> ObjectID? {
        let known = try repository.reference(Self.remoteBranch)
        try options.retryingNetworkFailures(logger: logger) {
            try fetch(from: remote, credentials: credentials, timeout: options.networkTimeout, progress: options.progress)
        }
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
        return theirs
    }

    /// Takes in the remote's `theirs` on the store's `head`: a fast-forward when the store has
    /// nothing of its own beyond it, one merge commit when both have news, nothing when the
    /// store has it already.
    private func integrate(_ theirs: ObjectID, into head: ObjectID, result: inout SyncResult) throws {
        if try repository.isDescendant(theirs, of: head) {
            let changed = try moveWorkingTree(from: head, to: theirs)
            result.integration = .fastForward
            result.changedFiles = Array(Set(result.changedFiles + changed)).sorted()
            result.head = CheckpointID(theirs)
            logger.debug("merge", metadata: ["kind": "fast-forward", "files": "\(changed.count)", "commit": "\(theirs.short)"])
        } else if try !repository.isDescendant(head, of: theirs) {
            let merge = try mergeCommit(head, theirs)
            let changed = try moveWorkingTree(from: head, to: merge.commit)
            result.integration = .merged(CheckpointID(merge.commit))
            result.conflicts = merge.outcome.conflicts
            result.changedFiles = Array(Set(result.changedFiles + changed)).sorted()
            result.head = CheckpointID(merge.commit)
            logger.debug(
                "merge",
                metadata: [
                    "commit": "\(merge.commit.short)", "documents": "\(merge.outcome.mergedDocuments)",
                    "files": "\(changed.count)", "conflicts": "\(merge.outcome.conflicts.count)",
                ])
        }
    }

    /// Checks `local` against the server's rules and the content it is pinned to, sends its
    /// assets, and pushes it over the remote's `theirs` (as just `fetched`, or as last
    /// fetched: then no asset is sent, and one the server lacks means fetching first).
    private func pushRound(
        _ round: Int, _ local: ObjectID, over theirs: ObjectID?, fetched: Bool, remote: RemoteURL, credentials: Credentials?,
        options: SyncOptions, answers: inout [String: ObjectID?], result: inout SyncResult
    ) throws -> SyncRoundEnd {
        // The server's rules, applied here first: what another git tool committed never
        // reaches a server that would refuse it, nor a path remote, which runs no hook.
        let refusals = try PushRules.device(repository, uid: uid, codec: codec, device: deviceID())
            .refusals(updating: "refs/heads/" + Self.branch, from: theirs, to: local)
        if !refusals.isEmpty {
            throw try pushRefusal(refusals.joined(separator: "; "), by: remote, local: local, remoteCommit: theirs, checkedHere: true)
        }
        // Progress pinned to content the server changed or deleted waits for a decision:
        // the merge stays, nothing is pushed (a push is all or nothing).
        result.pins = try checkPins(from: theirs, to: local, credentials: credentials, options: options, answers: &answers)
        try recordHeldPins(result.pins)
        if result.held {
            logger.notice("push held: pinned content changed", metadata: ["documents": "\(result.heldDocuments.count)"])
            return .held
        }
        // A commit never reaches the remote before the assets it points to.
        guard try uploadAssets(of: local, beyond: theirs, to: remote, credentials: credentials, options: options, sending: fetched) else {
            logger.debug("assets to send first: fetching before the push")
            return .fetchFirst
        }
        let sending = try theirs.map { try repository.aheadBehind(local, $0).ahead } ?? countCommits(local)
        let pushed = try options.retryingNetworkFailures(logger: logger) {
            try push(
                local, to: remote, expecting: theirs, credentials: credentials, timeout: options.networkTimeout,
                progress: options.progress)
        }
        switch pushed {
        case .accepted:
            try repository.setReference(Self.remoteBranch, to: local, expecting: theirs, message: "cairn: pushed")
            // A path remote runs no hook: the pusher removes the assets its push left
            // behind, as a server's post-receive hook does.
            // The push is in whatever happens here.
            if remote.transport == .path, try schemaSet().hasAssets {
                do {
                    try AssetSweep.sweepAfterPush(Repository(openingAt: remote.url), from: theirs, to: local)
                } catch {
                    logger.warning("assets not removed from the remote", metadata: ["reason": "\(error)"])
                }
            }
            result.pushedCommits = sending
            logger.debug("push", metadata: ["commits": "\(sending)", "commit": "\(local.short)", "round": "\(round)"])
            return .done
        case .alreadyOnRemote:
            // An earlier push landed and its answer was lost: nothing was sent again.
            try repository.setReference(Self.remoteBranch, to: local, expecting: theirs, message: "cairn: pushed")
            logger.debug("push: the remote already holds it", metadata: ["commit": "\(local.short)"])
            return .done
        case .behind:
            return .behind
        case .refused(let reason):
            throw try pushRefusal(reason, by: remote, local: local, remoteCommit: theirs)
        }
    }

    private func countCommits(_ tip: ObjectID) throws -> Int {
        var count = 0
        try repository.walkHistory(from: tip) { _ in
            count += 1
            return true
        }
        return count
    }
}
