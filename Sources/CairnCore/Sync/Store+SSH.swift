import Git

extension Store {
    /// How to reach `remote` over SSH, as ssh and git would (see ``SSHAccess``): the store's
    /// `core.sshCommand` (or `GIT_SSH_COMMAND`), `~/.ssh/config`, then the agent. Nil for a
    /// remote that is not SSH. A setting Cairn cannot use is refused in one line.
    func sshAccess(for remote: RemoteURL) throws(CairnError) -> SSHAccess? {
        guard remote.transport == .ssh else { return nil }
        let configured = (try? repository.config("core.sshCommand")) ?? nil
        return try Self.sshAccess(for: remote, environment: .current(configuredCommand: configured))
    }

    static func sshAccess(for remote: RemoteURL, environment: SSHEnvironment) throws(CairnError) -> SSHAccess {
        guard let address = SSHAddress(remote.url) else {
            throw CairnError(.invalidInput, "invalid remote \(remote): write an SSH remote as ssh://user@host/path or user@host:path")
        }
        do {
            return try SSHAccess.resolve(address, in: environment)
        } catch {
            throw CairnError(.invalidInput, "cannot reach \(remote): \(error.description)", cause: error)
        }
    }

    /// What to say when SSH authentication or the server's answer ended a transfer; nil when
    /// the failure is something else (the network, the host key). None of these is worth
    /// trying again: a key refused, no key to offer, a server that denies the user (gitolite's
    /// `DENIED`), or says there is no such repository.
    static func sshFailure(_ error: GitError, remote: RemoteURL, attempt: SSHAttempt?, doing what: String) -> CairnError? {
        guard let attempt else { return nil }
        let access = attempt.access
        let login = "\(access.user)@\(access.host)"
        let choose = "name your key with IdentityFile in ~/.ssh/config (IdentitiesOnly yes to offer it alone) or with core.sshCommand \"ssh -i KEY\""
        let offered = attempt.offered.map(\.description).joined(separator: ", ")
        if let signing = attempt.signingFailure {
            return CairnError(.authentication, "cannot \(what) \(remote): \(signing); add the key to the agent again (ssh-add)", cause: error)
        }
        // libgit2 reports a failure inside libssh2's authentication as "Failed to
        // authenticate", and a server that closed the connection as the methods it no longer
        // lists; both are refusals.
        let failedInLibssh2 = error.message.hasPrefix("Failed to authenticate SSH session")
        if failedInLibssh2, case .file(let path)? = attempt.offered.last, error.message.lowercased().contains("key") {
            let said = error.message.dropFirst("Failed to authenticate SSH session: ".count)
            return CairnError(.authentication, "cannot \(what) \(remote): libssh2 could not use the key file \(path) (\(said)); add it to the ssh-agent instead: ssh-add \(path)", cause: error)
        }
        if error.code == .auth || failedInLibssh2 {
            if attempt.offered.isEmpty {
                let why = access.notes.isEmpty ? "" : " (\(access.notes.joined(separator: "; ")))"
                return CairnError(.authentication, "cannot \(what) \(remote): no SSH key to offer to \(login)\(why); add your key to an ssh-agent with ssh-add, or \(choose)", cause: error)
            }
            if attempt.offered.count < access.offers.count {
                // sshd counts each key and each request for the methods left as a try (6 by
                // default), so a few keys refused use them up.
                return CairnError(.authentication, "cannot \(what) \(remote): \(login) refused the keys offered (\(offered)) and closed the connection before the others (a server allows a few tries only); \(choose)", cause: error)
            }
            return CairnError(.authentication, "cannot \(what) \(remote): \(login) refused every key offered (\(offered)); check that the server authorizes yours, and \(choose)", cause: error)
        }
        // What the server wrote on stderr instead of speaking git: its refusal, in its words.
        guard error.code == .endOfFile, error.isSSHFailure else { return nil }
        let said = error.message.split(whereSeparator: \.isNewline).map { $0.trimmedOfSpaces }.filter { !$0.isEmpty }.joined(separator: " ")
        guard !said.isEmpty else { return nil }
        let lowered = said.lowercased()
        let key = attempt.offered.last.map { " with key \($0)" } ?? ""
        if said.contains("DENIED") || lowered.contains("permission denied") || lowered.contains("access denied") || lowered.contains("not allowed") {
            return CairnError(.authentication, "cannot \(what) \(remote): the server denied \(login)\(key): \(said); check that this is your key for it and that the repository is yours — \(choose)", cause: error)
        }
        if lowered.contains("does not appear to be a git repository") || lowered.contains("does not exist") || lowered.contains("not found") || lowered.contains("no such") {
            return CairnError(.notFound, "cannot \(what) \(remote): there is no repository there (the server said: \(said))",
                              remedy: .checkPathOrCreateRemoteRepository, cause: error)
        }
        return CairnError(.refused, "cannot \(what) \(remote): the server refused: \(said)", cause: error)
    }
}
