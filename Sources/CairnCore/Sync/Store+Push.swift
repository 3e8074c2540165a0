import CairnMerge
import Git

extension Store {
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
              timeout: Double, progress: (@Sendable (TransferProgress) -> Void)?) throws -> PushResult {
        let refspec = "refs/heads/\(Self.branch):refs/heads/\(Self.branch)"
        let ssh = try sshAccess(for: remote)
        func send() throws -> PushOutcome {
            var connection: Remote?
            do {
                let made = try Remote(repository: repository, url: ssh?.url ?? remote.connectionURL)
                connection = made
                made.timeout = timeout
                return try made.push([refspec], credentials: credentials, ssh: ssh) { progress?($0) }
            } catch {
                if error.code == .nonFastForward || error.message.contains("not present locally") {
                    return PushOutcome(rejections: ["refs/heads/\(Self.branch)": "non-fast-forward"])
                }
                throw Self.remoteFailure(error, remote: remote, credentials: credentials, ssh: connection?.lastSSHAttempt, doing: "push to")
            }
        }
        let outcome: PushOutcome
        if remote.transport == .path {
            let bareLock = StoreLock(gitdir: remote.url, timeout: lock.timeout, file: "cairn-push.lock")
            outcome = try bareLock.withLock { () throws -> PushOutcome in
                let bare = try Self.openRemoteRepository(remote)
                guard try bare.reference(branchReference) == expected else {
                    return PushOutcome(rejections: ["refs/heads/\(Self.branch)": "non-fast-forward"])
                }
                let outcome = try send()
                if outcome.accepted, try Self.openRemoteRepository(remote).reference(branchReference) != local {
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
        // libgit2 writes a path remote itself, and reports its disk failing there as a
        // rejection: that is the disk, not the remote's rules.
        if remote.transport == .path, let code = FileSystem.diskErrorCode(named: reason) {
            throw CairnError(.io, "cannot push to \(remote): \(reason)\(FileSystem.hint(errno: code))")
        }
        let said = outcome.remoteMessages.filter { $0.hasPrefix("cairn:") }.map { String($0.dropFirst(6).trimmedOfSpaces) }
        return .refused(said.isEmpty ? reason : said.joined(separator: "; "))
    }

    package static func openRemoteRepository(_ remote: RemoteURL) throws(CairnError) -> Repository {
        do {
            return try Repository(openingAt: remote.url)
        } catch {
            throw CairnError(.notFound, "there is no repository at \(remote)", remedy: .createRemoteRepository, cause: error)
        }
    }

    /// The status in libgit2's `unexpected http status code: N`, if the message is that one.
    static func httpStatus(in message: String) -> Int? {
        guard let range = message.firstRange(of: "http status code: ") else { return nil }
        return Int(message[range.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }

    /// A failure talking to a remote, classified: credentials (and over SSH, keys refused and
    /// the server's own refusals), network, missing repository. Only a network failure is
    /// worth trying again.
    static func remoteFailure(_ error: any Error, remote: RemoteURL, credentials: Credentials?, ssh: SSHAttempt? = nil,
                              doing what: String) -> CairnError {
        if let error = error as? CairnError { return error }
        guard let error = error as? GitError else { return CairnError(.io, "cannot \(what) \(remote): \(error)") }
        if remote.transport == .ssh, let failure = sshFailure(error, remote: remote, attempt: ssh, doing: what) {
            return failure
        }
        let message = error.message
        // A full or failing disk, here or (for a path) at the remote: not the remote's answer.
        if error.systemErrorCode != nil || error.isSystemFailure, let code = FileSystem.diskErrorCode(named: message) {
            return CairnError(.io, "cannot \(what) \(remote): \(message)\(FileSystem.hint(errno: code))", cause: error)
        }
        // HTTP statuses are looked for in libgit2's HTTP messages only: a failure of the
        // system names files, whose names may hold any digits.
        let fromServer = !error.isSystemFailure && error.systemErrorCode == nil
        if error.code == .auth || (fromServer && (message.contains("401") || message.contains("authentication replays"))) {
            let (hint, remedy): (String, CairnError.Remedy?) = if remote.transport == .ssh {
                ("it refused the keys of the running ssh-agent: add yours with ssh-add (SSH_AUTH_SOCK must point to the agent) and check the server authorizes it", nil)
            } else if let credentials {
                ("it refused the credentials of \(credentials.username)", .checkCredentials)
            } else {
                ("it asks for credentials", .giveCredentials)
            }
            return CairnError(.authentication, "cannot \(what) \(remote): \(hint)", remedy: remedy, cause: error)
        }
        if message.contains("hostkey") || message.contains("host key") {
            return CairnError(.authentication, "cannot \(what) \(remote): its SSH host key is not in ~/.ssh/known_hosts (or does not match it); check the key and add it (ssh-keyscan), then try again", cause: error)
        }
        if fromServer, message.contains("403") {
            return CairnError(.authentication, "cannot \(what) \(remote): \(credentials?.username ?? "this user") may not access it (HTTP 403)", cause: error)
        }
        if (fromServer && message.contains("404")) || (remote.transport == .path && (message.contains("could not find repository") || message.contains("not a git repository") || message.contains("failed to resolve path"))) {
            return CairnError(.notFound, "cannot \(what) \(remote): there is no repository there", remedy: .createRemoteRepository, cause: error)
        }
        // Any other 4xx but 408 and 429 is the server's rule, not a passing failure: trying
        // again sends the same request and meets the same answer.
        if fromServer, let status = httpStatus(in: message), (400..<500).contains(status), status != 408, status != 429 {
            if status == 413 {
                return CairnError(.refused, "cannot \(what) \(remote): the server refuses a request this large (HTTP 413); its limit on the size of a request must be raised (nginx: client_max_body_size; lighttpd: server.max-request-size)", cause: error)
            }
            return CairnError(.refused, "cannot \(what) \(remote): the server refused the request (HTTP \(status))", remedy: .checkRemoteURL, cause: error)
        }
        if error.isNetworkFailure || (remote.transport != .path && error.isSystemFailure) {
            return CairnError(.network, "cannot \(what) \(remote): \(message)", cause: error)
        }
        return CairnError(.corrupt, "cannot \(what) \(remote): \(message)", cause: error)
    }
}
