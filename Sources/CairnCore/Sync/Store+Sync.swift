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

    /// Rounds of fetch, merge and push, until the push lands, nothing is left to push, or a
    /// push is held: at most `options.pushAttempts` rounds that fetch, with a growing pause
    /// between them when another device keeps pushing first.
    ///
    /// A store whose only news is its own (its branch descends from the remote's as last
    /// fetched, and it adds no asset) pushes first, without fetching; a push held by pinned
    /// content, or one that would have to send assets the server lacks, fetches after all.
    /// When no other device pushed meanwhile, the push's own advertisement of the remote's
    /// branch says so, and the fetch's round trip is saved. When one did, libgit2 refuses the
    /// push before sending anything, and the rounds that fetch follow at once.
    private func syncRounds(
        remote: RemoteURL, credentials: Credentials?, options: SyncOptions,
        result: inout SyncResult
    ) throws {
        var random = SystemRandomNumberGenerator()
        // What each content item's server said, asked once per sync whatever the rounds.
        var answers: [String: ObjectID?] = [:]
        if try hasOnlyNewsOfItsOwn() {
            let end = try syncRound(
                1, fetching: false, remote: remote, credentials: credentials, options: options, answers: &answers, result: &result)
            // Held, it fetches all the same: a device waiting on a decision still takes in
            // what the others pushed.
            guard end != .done else { return }
            if end == .behind { logger.debug("push refused before sending: the remote moved; fetching") }
        }
        for round in 1...options.pushAttempts {
            result.rounds = round
            let end = try syncRound(
                round, fetching: true, remote: remote, credentials: credentials, options: options, answers: &answers, result: &result)
            guard end == .behind else { return }
            logger.debug("push refused: the remote moved", metadata: ["round": "\(round)"])
            if round < options.pushAttempts {
                let pause = min(0.05 * Double(1 << min(round, 6)), 2) * Double.random(in: 0.5...1.5, using: &random)
                options.sleep(pause)
            }
        }
        throw CairnError(
            .busy, "\(remote) kept moving while this store synced (\(options.pushAttempts) rounds): other devices are pushing; sync again")
    }

    /// Whether the store's branch descends from the remote's as last fetched, and is not it,
    /// and names no asset that one does not. Assets go up before the push that names them:
    /// pushed first and refused because another device pushed meanwhile, they would wait on
    /// the server for a merge that may drop them, and nothing would ever sweep them.
    private func hasOnlyNewsOfItsOwn() throws -> Bool {
        guard let known = try repository.reference(Self.remoteBranch), let head = try repository.reference(branchReference),
            head != known, try repository.isDescendant(head, of: known)
        else { return false }
        let named = try repository.assetPointers(inTree: repository.commit(head).treeID)
        guard !named.isEmpty else { return true }
        let onTheRemote = try AssetSweep.oids(in: repository, tree: repository.commit(known).treeID)
        return named.values.allSatisfy { onTheRemote.contains($0.oid) }
    }
}
