import Git

extension Store {
    /// Runs `operation` (a fetch or a push) on a new connection to `url`, which `opened`
    /// names as soon as it is made (a failure's message tells what SSH tried). A server that
    /// asked this process for the password before gets it with the first request
    /// (``PasswordChallenges``); one that redirects that request is asked again without it,
    /// so that the password never follows a redirect. A server that asks now is remembered.
    func connecting<T>(to url: String, credentials: Credentials?, timeout: Double, opened: (Remote) -> Void,
                       _ operation: (Remote) throws(GitError) -> T) throws(GitError) -> T {
        let made = try Remote(repository: repository, url: url)
        opened(made)
        made.timeout = timeout
        if let header = PasswordChallenges.header(for: url, credentials: credentials) {
            made.headers = [header]
            do {
                return try operation(made)
            } catch where error.message.contains("unexpected redirect") {
                PasswordChallenges.forget(url, credentials: credentials)
                made.headers = []
            }
        }
        let result = try operation(made)
        if made.passwordAsked { PasswordChallenges.remember(url, credentials: credentials) }
        return result
    }
}
