import Git

extension Store {
    /// Runs `operation` (a fetch or a push) on a new connection to `url`, which `opened`
    /// names as soon as it is made (a failure's message tells what SSH tried). A server that
    /// asked for the password before gets it with the first request, so no request is
    /// answered 401 only to be made again: one that asked this process
    /// (``PasswordChallenges``), and one that asked any earlier sync of this store, which
    /// git's own setting records in the store's configuration,
    /// `http.<url>.proactiveAuth = basic` (git 2.46 and later read it too; set
    /// `http.proactiveAuth` yourself to send it from a store's first sync). If that request is
    /// redirected, the operation is made again without it, and the setting Cairn wrote is
    /// removed. A server that asks now is remembered only if every connection went to the
    /// URL's own host and port: a password asked for after a redirect is never sent ahead to
    /// the URL that redirected.
    ///
    /// During a sync (``keptRemotes``), an HTTP remote is made once and used for each fetch and
    /// push, so they share its connection; one that failed is dropped (but for a push refused
    /// before sending), and the next operation starts on a new connection.
    func connecting<T>(
        to url: String, credentials: Credentials?, timeout: Double, opened: (Remote) -> Void,
        _ operation: (Remote) throws(GitError) -> T
    ) throws(GitError) -> T {
        let keeps = keptRemotes != nil && (url.hasPrefix("http://") || url.hasPrefix("https://"))
        let made: Remote
        if let kept = keptRemotes?[url] {
            made = kept
        } else {
            made = try Remote(repository: repository, url: url)
            if keeps { keptRemotes?[url] = made }
        }
        do throws(GitError) {
            return try connecting(made, url: url, credentials: credentials, timeout: timeout, opened: opened, operation)
        } catch {
            // A push libgit2 refused before sending (the remote's branch moved) leaves the
            // connection sound: the fetch that follows uses it.
            if keeps, error.reason != .nonFastForward { keptRemotes?[url] = nil }
            throw error
        }
    }

    private func connecting<T>(
        _ made: Remote, url: String, credentials: Credentials?, timeout: Double, opened: (Remote) -> Void,
        _ operation: (Remote) throws(GitError) -> T
    ) throws(GitError) -> T {
        opened(made)
        made.timeout = timeout
        let key = credentials.flatMap { Self.proactiveAuthKey(url, user: $0.username) }
        let proactive = credentials?.sentFirst == true || (key.map(sendsCredentialsFirst) ?? false)
        if let header = PasswordChallenges.header(for: url, credentials: credentials, proactive: proactive) {
            made.headers = [header]
            do {
                return try operation(made)
            } catch  where Self.refusesCredentialsSentAhead(error) {
                // Redirected, or the password sent ahead was refused (libgit2 then adds its
                // own, and a server answers two `Authorization` headers with 400): made again
                // as git makes it, waiting to be asked, so a refusal reads as one.
                PasswordChallenges.forget(url, credentials: credentials)
                if let key { try? repository.removeConfig(key) }
                made.headers = []
            }
        }
        let result = try operation(made)
        if made.passwordAsked, let endpoint = PasswordChallenges.endpoint(of: url),
            made.endpointsReached.allSatisfy({ $0 == endpoint })
        {
            PasswordChallenges.remember(url, credentials: credentials)
            if !proactive, let key { try? repository.setConfig(key, to: "basic") }
        }
        return result
    }

    private static func refusesCredentialsSentAhead(_ error: GitError) -> Bool {
        if error.message.contains("unexpected redirect") || error.message.contains("cannot redirect from") { return true }
        switch error.reason {
        case .authentication?, .httpStatus(400)?, .httpStatus(401)?: return true
        default: return false
        }
    }

    /// git's setting for sending credentials to `url` before the server asks, for `user`
    /// (`http.<scheme>://<user>@<host>/<path>.proactiveAuth`: git matches it only for that
    /// user); nil for a URL that is not HTTP.
    static func proactiveAuthKey(_ url: String, user: String) -> String? {
        for scheme in ["http://", "https://"] where url.hasPrefix(scheme) {
            let rest = String(url.dropFirst(scheme.count))
            return "http." + scheme + PercentEncoding.encoded(user) + "@" + rest + ".proactiveAuth"
        }
        return nil
    }

    /// Whether the store's configuration (or the user's) says to send credentials with the
    /// first request: `key` (``proactiveAuthKey(_:user:)``), else `http.proactiveAuth`, set
    /// to `basic` or `auto`, as git reads them.
    func sendsCredentialsFirst(_ key: String) -> Bool {
        let value = (try? repository.config(key)) ?? (try? repository.config("http.proactiveAuth"))
        return value.map { ["basic", "auto"].contains($0.lowercased()) } ?? false
    }
}
