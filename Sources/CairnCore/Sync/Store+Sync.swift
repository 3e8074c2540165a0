import CairnMerge
import Git
import GitFormat
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Store {
    /// Syncs the store with its remote: checkpoints pending writes, fetches, fast-forwards or
    /// merges under the schema set's policies (one merge commit, its conflict records in the
    /// message), updates the working tree, checks the content that the documents it would push
    /// are pinned to (``PinCheck``: while any is held, it returns without pushing), and pushes.
    /// When another device pushed first, it fetches and merges again (bounded, with a growing
    /// pause).
    ///
    /// Network failures are tried again on `options.retry`; a refused push, refused
    /// credentials or foreign data fetched end the sync at once. A failed sync leaves the
    /// store on the commit it started from (its checkpoints kept for the next try), with
    /// whatever was fetched.
    @discardableResult
    public func sync(_ options: SyncOptions = SyncOptions()) throws(CairnError) -> SyncResult {
        guard let remote = try remote() else {
            throw CairnError(.notFound, "the store of user \(uid) has no remote", remedy: .setRemote)
        }
        guard !remote.isReadOnly else {
            throw CairnError(
                .refused,
                "\(remote) is a git:// remote: it is read-only and unauthenticated, and Cairn never pushes private progress to it; use an https:// or ssh:// URL or a path"
            )
        }
        return try options.presentingCredentials(to: remote, as: uid, configuration: configuration) { credentials throws(CairnError) in
            try sync(with: remote, credentials: credentials, options: options)
        }
    }

    /// ``sync(_:)`` presenting `credentials`.
    private func sync(with remote: RemoteURL, credentials: Credentials?, options: SyncOptions) throws(CairnError) -> SyncResult {
        try locked("cannot sync with \(remote)") { () throws -> SyncResult in
            let checkpoint = try commitPending(message: nil)
            let start = try repository.reference(branchReference)
            var result = SyncResult(checkpoint: checkpoint)
            // What another git tool committed here was corrected in that checkpoint already.
            result.corrections = checkpoint.corrections
            // One connection for the sync's fetches and pushes, closed when it ends.
            keptRemotes = [:]
            defer { keptRemotes = nil }
            do {
                try syncRounds(remote: remote, credentials: credentials, options: options, result: &result)
                // Assets no document points to any more leave this device (Store+AssetTransfers.swift);
                // the sync is done whatever happens here, and the next one tries again.
                do {
                    try sweepLocalAssets()
                } catch {
                    logger.warning("assets not removed", metadata: ["reason": "\(error)"])
                }
                return result
            } catch {
                // A move of the working tree cut short by the failure is undone first.
                try? undoInterruptedMove()
                if let now = try? repository.reference(branchReference), let start, now != start {
                    _ = try? moveWorkingTree(from: now, to: start)
                }
                logger.error("sync failed", metadata: ["reason": "\(error)"])
                throw error
            }
        }
    }

    private func syncRounds(
        remote: RemoteURL, credentials: Credentials?, options: SyncOptions,
        result: inout SyncResult
    ) throws {
        var random = SystemRandomNumberGenerator()
        // What each content item's server said, asked once per sync whatever the rounds.
        var answers: [String: ObjectID?] = [:]
        for round in 1...options.pushAttempts {
            result.rounds = round
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
            guard let head = try repository.reference(branchReference) else {
                throw CairnError(.corrupt, "the store of user \(uid) has no commit on \(Self.branch)", remedy: .cloneStore)
            }
            result.head = CheckpointID(head)
            if let theirs, theirs != head {
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
            // Derived fields another writer left wrong, in what came in or goes out.
            try correctDerivedFields(comparing: [head, theirs], result: &result)
            // Asset pointers another git tool left out, and fields pointing to deleted assets.
            try reconcileAssets(with: theirs, remote: remote, credentials: credentials, options: options, result: &result)
            guard let local = result.head?.objectID, local != theirs else {
                result.pins = []
                try recordHeldPins([])
                return
            }
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
                return
            }
            // A commit never reaches the remote before the assets it points to.
            try uploadAssets(of: local, beyond: theirs, to: remote, credentials: credentials, options: options)
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
                return
            case .behind:
                logger.debug("push refused: the remote moved", metadata: ["round": "\(round)"])
                if round < options.pushAttempts {
                    let pause = min(0.05 * Double(1 << min(round, 6)), 2) * Double.random(in: 0.5...1.5, using: &random)
                    options.sleep(pause)
                }
            case .refused(let reason):
                throw try pushRefusal(reason, by: remote, local: local, remoteCommit: theirs)
            }
        }
        throw CairnError(
            .busy, "\(remote) kept moving while this store synced (\(options.pushAttempts) rounds): other devices are pushing; sync again")
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
