import CairnMerge
import CairnSystem
import Git
import GitFormat
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Store {
    /// Fetches the remote's branch into `refs/remotes/origin/main`.
    func fetch(
        from remote: RemoteURL, credentials: Credentials?, timeout: Double,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) throws {
        let started = Date()
        var last: Git.TransferProgress?
        if remote.transport == .path, FileSystem.kind(remote.url) != .folder {
            throw CairnError(.notFound, "cannot fetch from \(remote): there is no repository there", remedy: .createRemoteRepository)
        }
        let ssh = try sshAccess(for: remote)
        var connection: Remote?
        do {
            try connecting(
                to: ssh?.url ?? remote.connectionURL, credentials: credentials, timeout: timeout,
                opened: { connection = $0 }
            ) { made throws(GitError) in
                try made.fetch(["+refs/heads/\(Self.branch):\(Self.remoteBranch)"], credentials: credentials?.git, ssh: ssh) { step in
                    last = step
                    progress?(TransferProgress(step))
                }
            }
        } catch {
            throw Self.remoteFailure(error, remote: remote, credentials: credentials, ssh: connection?.lastSSHAttempt, doing: "fetch from")
        }
        logger.debug(
            "fetch",
            metadata: [
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
            if difference.path == StoreLayout.identityFile {
                let identity = try? JSONParser().parse(repository.blobContent(entry.id))
                guard case .string(uid)? = identity?.field("uid") else {
                    throw CairnError(
                        .corrupt,
                        "the remote's \(StoreLayout.identityFile) names another user than \(uid): it is not this user's progress; nothing was merged"
                    )
                }
                let encrypted = identity?.field("encrypted") == .bool(true)
                guard encrypted == codec.isEncrypted else {
                    throw CairnError(
                        .corrupt,
                        "the remote's store is \(encrypted ? "encrypted" : "plain") and this one is \(codec.isEncrypted ? "encrypted" : "plain"): a store never changes between the two; nothing was merged"
                    )
                }
            }
            guard DocumentPath(fileName: difference.path) != nil else { continue }
            let bytes: [UInt8]
            do {
                bytes = try codec.json(repository.blobContent(entry.id), at: difference.path)
            } catch let error as CairnError {
                throw CairnError(
                    error.code, "cannot take what the remote holds: \(error.message); nothing was merged", remedy: error.remedy,
                    cause: error)
            }
            do {
                guard case .object = try JSONParser().parse(bytes) else {
                    throw CairnError(.corrupt, "the remote's \(difference.path) is not a JSON object; nothing was merged")
                }
            } catch let error as JSONParseError {
                throw CairnError(
                    .corrupt, "the remote's \(difference.path) is not a valid document (\(error.description)); nothing was merged",
                    cause: error)
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
    static func firstRefusal(
        in repository: Repository, from tip: ObjectID, hiding hidden: [ObjectID],
        uid: String
    ) throws -> (ObjectID, StoreTreeRefusal)? {
        try treeRefusals(in: repository, from: tip, hiding: hidden, uid: uid, limit: 1).first
    }

    /// Every file that a commit reachable from `tip` but not from `hidden` adds and a store of
    /// `uid` cannot hold, with its commit and the reason, in the order of the walk (at most
    /// `limit`).
    static func treeRefusals(
        in repository: Repository, from tip: ObjectID, hiding hidden: [ObjectID],
        uid: String, limit: Int = .max
    ) throws -> [(ObjectID, StoreTreeRefusal)] {
        var refusals: [(ObjectID, StoreTreeRefusal)] = []
        for id in try repository.commits(from: tip, hiding: hidden) {
            let commit = try repository.commit(id)
            let parentTree = try commit.parentIDs.first.map { try repository.commit($0).treeID }
            for difference in try repository.differences(among: [parentTree, commit.treeID]) {
                guard let entry = difference.entries[1] else { continue }
                if let refusal = StoreTree.refusal(of: difference.components, mode: entry.mode, uid: uid) {
                    refusals.append((id, refusal))
                    if refusals.count >= limit { return refusals }
                }
            }
        }
        return refusals
    }
}
