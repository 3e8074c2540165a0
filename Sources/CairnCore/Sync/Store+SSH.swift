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
        let choose =
            "name your key with IdentityFile in ~/.ssh/config (IdentitiesOnly yes to offer it alone) or with core.sshCommand \"ssh -i KEY\""
        let offered = attempt.offered.map(\.description).joined(separator: ", ")
        if let signing = attempt.signingFailure {
            return CairnError(
                .authentication, "cannot \(what) \(remote): \(signing); add the key to the agent again (ssh-add)", cause: error)
        }
        switch error.reason {
        case .authentication(.libssh2(let said, let keyFile?))?:
            return CairnError(
                .authentication,
                "cannot \(what) \(remote): libssh2 could not use the key file \(keyFile) (\(said)); add it to the ssh-agent instead: ssh-add \(keyFile)",
                cause: error)
        case .authentication?:
            // A key refused, none to offer, or libssh2 failing inside authentication (a server
            // that closed the connection, as sshd does after too many tries): refusals all.
            if attempt.offered.isEmpty {
                let why = access.notes.isEmpty ? "" : " (\(access.notes.joined(separator: "; ")))"
                return CairnError(
                    .authentication,
                    "cannot \(what) \(remote): no SSH key to offer to \(login)\(why); add your key to an ssh-agent with ssh-add, or \(choose)",
                    cause: error)
            }
            if attempt.offered.count < access.offers.count {
                // sshd counts each key and each request for the methods left as a try (6 by
                // default), so a few keys refused use them up.
                return CairnError(
                    .authentication,
                    "cannot \(what) \(remote): \(login) refused the keys offered (\(offered)) and closed the connection before the others (a server allows a few tries only); \(choose)",
                    cause: error)
            }
            return CairnError(
                .authentication,
                "cannot \(what) \(remote): \(login) refused every key offered (\(offered)); check that the server authorizes yours, and \(choose)",
                cause: error)
        // What the server wrote on stderr instead of speaking git: its refusal, in its words.
        case .accessDenied(let said)?:
            let key = attempt.offered.last.map { " with key \($0)" } ?? ""
            return CairnError(
                .authentication,
                "cannot \(what) \(remote): the server denied \(login)\(key): \(said); check that this is your key for it and that the repository is yours — \(choose)",
                cause: error)
        case .repositoryNotFound(let said?)?:
            return CairnError(
                .notFound, "cannot \(what) \(remote): there is no repository there (the server said: \(said))",
                remedy: .checkPathOrCreateRemoteRepository, cause: error)
        case .serverRefused(let said)?:
            return CairnError(.refused, "cannot \(what) \(remote): the server refused: \(said)", cause: error)
        default:
            return nil
        }
    }
}
