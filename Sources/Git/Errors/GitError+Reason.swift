extension GitError {
    /// Why a call failed, in terms a caller can act on: what the remote answered or refused,
    /// or what the system said. Set where it is known — by the remote callbacks (credentials,
    /// host key, pushed references) and, when libgit2 tells it only in its message, by
    /// ``init(libgit2Message:category:code:function:)``, the one place that reads libgit2's
    /// text.
    public enum Reason: Sendable, Hashable {
        /// The HTTP server answered with a status libgit2 does not handle itself (libgit2 follows
        /// redirects and answers 401 with credentials): 403, 404, 413, 500…
        case httpStatus(Int)
        /// The SSH server's host key is not one `~/.ssh/known_hosts` lists for it — missing,
        /// or another key listed (libgit2 1.5 does not say which) — or could not be read.
        case hostKeyNotTrusted
        /// The HTTPS server's certificate did not pass the TLS library's check against the
        /// system's CA certificates (not signed by one of them, another host's, expired…), in
        /// the library's words, its lines joined.
        case certificateNotTrusted(said: String)
        /// Authentication failed; how, as far as the client saw.
        case authentication(AuthenticationFailure)
        /// The remote's branch is not an ancestor of what was pushed: another push came first
        /// (or the server could not lock the branch while one did).
        case nonFastForward
        /// There is no repository at the remote's address; what the server said, if it said
        /// something.
        case repositoryNotFound(serverSaid: String?)
        /// The server denied the user access (gitolite's `DENIED`, sshd's `Permission denied`),
        /// in its words.
        case accessDenied(serverSaid: String)
        /// The server wrote something else on stderr instead of speaking git, in its words.
        case serverRefused(serverSaid: String)
        /// A system call failed with this `errno`: one of Cairn's own, or one of libgit2's.
        case system(errno: Int32)
        /// The CA certificates that a setting names (`GIT_SSL_CAINFO`, `http.sslCAInfo`, …;
        /// ``TrustedCertificates``) cannot be read as certificates.
        case certificatesUnreadable(setting: String)

        /// How authentication failed.
        public enum AuthenticationFailure: Sendable, Hashable {
            /// The remote asked for credentials and there were none to give: no user and
            /// password, no SSH key to offer.
            case nothingToOffer
            /// The remote refused what was offered: the password, or every SSH key.
            case refused
            /// libgit2 gave up after too many rounds of HTTP authentication (or redirects).
            case tooManyRounds
            /// libssh2 failed inside authentication, with its reason; `keyFile` is the key file
            /// it could not use, when the key offered last was a file and the reason is about
            /// a key.
            case libssh2(said: String, keyFile: String?)
        }
    }
}
