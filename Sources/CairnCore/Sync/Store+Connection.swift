import Git

extension Store {
    /// Runs `operation` (a fetch or a push) on a new connection to `url`, which `opened`
    /// names as soon as it is made (a failure's message tells what SSH tried). A server that
    /// asked this process for the password before gets it with the first request
    /// (``PasswordChallenges``); if that request is redirected, the operation is made again
    /// without it. A server that asks now is remembered only if every connection went to
    /// the URL's own host and port: a password asked for after a redirect is never sent
    /// ahead to the URL that redirected.
    func connecting<T>(to url: String, credentials: Credentials?, timeout: Double, opened: (Remote) -> Void,
                       _ operation: (Remote) throws(GitError) -> T) throws(GitError) -> T {
        let made = try Remote(repository: repository, url: url)
        opened(made)
        made.timeout = timeout
        if let header = PasswordChallenges.header(for: url, credentials: credentials) {
            made.headers = [header]
            do {
                return try operation(made)
            } catch where error.message.contains("unexpected redirect") || error.message.contains("cannot redirect from") {
                PasswordChallenges.forget(url, credentials: credentials)
                made.headers = []
            }
        }
        let result = try operation(made)
        if made.passwordAsked, let endpoint = PasswordChallenges.endpoint(of: url),
           made.endpointsReached.allSatisfy({ $0 == endpoint }) {
            PasswordChallenges.remember(url, credentials: credentials)
        }
        return result
    }
}
