import CairnMerge
import Git
import GitFormat
import Logging

extension Store {
    enum PushResult {
        case accepted
        /// The remote's branch was already `local` (an earlier push landed, its answer lost):
        /// nothing was sent.
        case alreadyOnRemote
        /// Another device pushed first: fetch and merge again.
        case behind
        case refused(String)
    }

    /// Pushes `local` to the remote's branch, which was `expected` at the last fetch.
    ///
    /// A path remote is written by libgit2 without compare-and-swap, so the push holds a lock
    /// on the bare repository, checks that its branch is still `expected`, and checks after
    /// that it is `local`; then it merges the remote's small packs.
    func push(
        _ local: ObjectID, to remote: RemoteURL, expecting expected: ObjectID?, credentials: Credentials?,
        timeout: Double, progress: (@Sendable (TransferProgress) -> Void)?
    ) throws -> PushResult {
        let refspec = "refs/heads/\(Self.branch):refs/heads/\(Self.branch)"
        let ssh = try sshAccess(for: remote)
        func send() throws -> PushOutcome {
            var connection: Remote?
            do {
                return try connecting(
                    to: ssh?.url ?? remote.connectionURL, credentials: credentials, timeout: timeout,
                    opened: { connection = $0 }
                ) { made throws(GitError) in
                    try made.push([refspec], credentials: credentials?.git, ssh: ssh) { progress?(TransferProgress($0)) }
                }
            } catch {
                if case .nonFastForward? = error.reason {
                    return PushOutcome(rejections: [
                        "refs/heads/\(Self.branch)": PushRejection(status: "non-fast-forward", reason: .nonFastForward)
                    ])
                }
                throw Self.remoteFailure(error, remote: remote, credentials: credentials, ssh: connection?.lastSSHAttempt, doing: "push to")
            }
        }
        let outcome: PushOutcome
        if remote.transport == .path {
            let bareLock = StoreLock(gitdir: remote.url, timeout: lock.timeout, file: StoreLayout.pushLockFile)
            outcome = try bareLock.withLock { () throws -> PushOutcome in
                let bare = try Self.openRemoteRepository(remote)
                guard try bare.reference(branchReference) == expected else {
                    return PushOutcome(rejections: [
                        "refs/heads/\(Self.branch)": PushRejection(status: "non-fast-forward", reason: .nonFastForward)
                    ])
                }
                let outcome = try send()
                if outcome.accepted, try Self.openRemoteRepository(remote).reference(branchReference) != local {
                    throw CairnError(.io, "the push to \(remote) did not land (its branch is not \(local.short)); sync again")
                }
                return outcome
            }
            if outcome.accepted { combinePacks(ofPathRemote: remote) }
        } else {
            outcome = try send()
        }
        if outcome.alreadyOnRemote { return .alreadyOnRemote }
        guard let rejection = outcome.rejections.values.first else { return .accepted }
        switch rejection.reason {
        case .nonFastForward?:
            return .behind
        case .system(let code)? where remote.transport == .path && FileSystem.isDiskFailure(code):
            // libgit2 writes a path remote itself, and reports its disk failing there as a
            // rejection: that is the disk, not the remote's rules.
            throw CairnError(.io, "cannot push to \(remote): \(rejection.status)\(FileSystem.hint(errno: code))")
        default:
            let said = outcome.remoteMessages.filter { $0.hasPrefix("cairn:") }.map { String($0.dropFirst(6).trimmedOfSpaces) }
            return .refused(said.isEmpty ? rejection.status : said.joined(separator: "; "))
        }
    }

    /// libgit2 writes each push by path into the bare repository as a pack of its own, and no
    /// git receive-pack runs `git gc --auto` there: the remote's small packs are merged as a
    /// store's are, or each fetch and push would look through every pack the remote ever got.
    ///
    /// After the push lock is let go, so that a long merge never holds back another device's
    /// push: a merge removes only packs whose objects its new pack holds, and a push only adds
    /// packs. Under a lock of its own, not waited for: a device that finds it taken leaves the
    /// merge to the one holding it. The push has landed either way, so a failure is logged.
    private func combinePacks(ofPathRemote remote: RemoteURL) {
        guard Repository.hasSmallPacksToCombine(gitdir: remote.url) else { return }
        let combining = StoreLock(gitdir: remote.url, timeout: 0, file: StoreLayout.combineLockFile)
        do {
            try combining.withLock { try Self.openRemoteRepository(remote).combineSmallPacks() }
        } catch let error as CairnError where error.code == .busy {
            logger.debug("another device is merging the small packs of \(remote)")
        } catch {
            logger.warning("merging the small packs of \(remote) failed; they stay as they are", metadata: ["error": "\(error)"])
        }
    }

    package static func openRemoteRepository(_ remote: RemoteURL) throws(CairnError) -> Repository {
        do {
            return try Repository(openingAt: remote.url)
        } catch {
            throw CairnError(.notFound, "there is no repository at \(remote)", remedy: .createRemoteRepository, cause: error)
        }
    }

    /// A failure talking to a remote, classified: credentials (and over SSH, keys refused and
    /// the server's own refusals), network, missing repository. Only a network failure is
    /// worth trying again.
    static func remoteFailure(
        _ error: any Error, remote: RemoteURL, credentials: Credentials?, ssh: SSHAttempt? = nil,
        doing what: String
    ) -> CairnError {
        if let error = error as? CairnError { return error }
        guard let error = error as? GitError else { return CairnError(.io, "cannot \(what) \(remote): \(error)") }
        if remote.transport == .ssh, let failure = sshFailure(error, remote: remote, attempt: ssh, doing: what) {
            return failure
        }
        let message = error.message
        switch error.reason {
        case .system(let code)? where FileSystem.isDiskFailure(code):
            // A full or failing disk, here or (for a path) at the remote: not the remote's answer.
            return CairnError(.io, "cannot \(what) \(remote): \(message)\(FileSystem.hint(errno: code))", cause: error)
        case .authentication?, .httpStatus(401)?:
            let (hint, remedy): (String, CairnError.Remedy?) =
                if remote.transport == .ssh {
                    (
                        "it refused the keys of the running ssh-agent: add yours with ssh-add (SSH_AUTH_SOCK must point to the agent) and check the server authorizes it",
                        nil
                    )
                } else if let credentials {
                    ("it refused the credentials of \(credentials.username)", .checkCredentials)
                } else {
                    ("it asks for credentials", .giveCredentials)
                }
            return CairnError(.authentication, "cannot \(what) \(remote): \(hint)", remedy: remedy, cause: error)
        case .hostKeyNotTrusted?:
            return CairnError(
                .authentication,
                "cannot \(what) \(remote): its SSH host key is not in ~/.ssh/known_hosts (or does not match it); check the key and add it (ssh-keyscan), then try again",
                cause: error)
        case .certificateNotTrusted(let said)?:
            return .certificateNotTrusted("cannot \(what) \(remote)", reason: said, cause: error)
        case .certificatesUnreadable?:
            return CairnError(.invalidInput, "cannot \(what) \(remote): \(message)", cause: error)
        case .httpStatus(403)?:
            return CairnError(
                .authentication, "cannot \(what) \(remote): \(credentials?.username ?? "this user") may not access it (HTTP 403)",
                cause: error)
        case .httpStatus(404)?, .repositoryNotFound?:
            return CairnError(
                .notFound, "cannot \(what) \(remote): there is no repository there", remedy: .createRemoteRepository, cause: error)
        case .httpStatus(413)?:
            return CairnError(
                .refused,
                "cannot \(what) \(remote): the server refuses a request this large (HTTP 413); its limit on the size of a request must be raised (nginx: client_max_body_size; lighttpd: server.max-request-size)",
                cause: error)
        case .httpStatus(let status)? where (400..<500).contains(status) && status != 408 && status != 429:
            // Any other 4xx but 408 and 429 is the server's rule, not a passing failure: trying
            // again sends the same request and meets the same answer.
            return CairnError(
                .refused, "cannot \(what) \(remote): the server refused the request (HTTP \(status))", remedy: .checkRemoteURL, cause: error
            )
        default:
            if error.isNetworkFailure || (remote.transport != .path && error.isSystemFailure) {
                return CairnError(.network, "cannot \(what) \(remote): \(message)", cause: error)
            }
            return CairnError(.corrupt, "cannot \(what) \(remote): \(message)", cause: error)
        }
    }
}
