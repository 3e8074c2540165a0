import CGit2
import GitFormat

#if canImport(Glibc)
import Glibc
#endif

/// A remote repository reached by URL — a path, `file://`, `git://`, `http(s)://` or `ssh://`
/// — without a name in the repository's configuration, so nothing about it, credentials
/// least of all, is written to disk.
///
/// A remote keeps its HTTP connection from one fetch or push to the next, as libgit2's HTTP
/// client does within one: a sync that fetches and then pushes through the same remote makes
/// one connection. If the server closed the kept connection meanwhile, the fetch or push is
/// made again at once on a new one (see ``SocketStream``); nothing of it had been answered.
///
/// Like its repository, a remote has one owner and is not `Sendable`.
public final class Remote {
    private(set) var handle: OpaquePointer
    /// The URL it was made with.
    public let url: String
    /// The repository the remote fetches into and pushes from; kept alive with the remote.
    public let repository: Repository
    /// How long, in seconds, a connection to the remote may make no progress — connecting,
    /// or waiting for a byte to read or for room to write — before the fetch or push fails
    /// as a network failure (``GitError/isNetworkFailure``); 0 waits without limit. 30 s
    /// unless set. Holds for http:// and https://; for SSH only while connecting (libssh2
    /// does its own reads and writes). See ``SocketStream``.
    public var timeout: Double = SocketStream.standardTimeout
    /// What the last fetch, push or listing over SSH did to authenticate (the keys offered, in
    /// order), kept after it failed too, so that a refusal can name the keys.
    public private(set) var lastSSHAttempt: SSHAttempt?
    /// HTTP headers sent with every request of a fetch or push (libgit2's custom
    /// headers), such as the credentials of a server that asked for them before. While there
    /// are any, the remote follows no redirect to another host (libgit2 1.5 fails with
    /// "cannot redirect from …"; it still follows one to another path of the same host).
    public var headers: [String] = []
    /// Whether the server asked for a user name and password in the last fetch or push, and
    /// was given them.
    public private(set) var passwordAsked = false
    /// The `host:port` of every connection the last fetch or push made, in order: a
    /// redirect to another host or port shows as a second endpoint. Empty when it made
    /// none: it used the connection kept from the one before.
    public private(set) var endpointsReached: [String] = []
    /// How many times the last fetch or push was made again because the server had closed
    /// the connection kept for it: 0 or 1.
    public private(set) var keptConnectionRetries = 0

    /// The remote at `url`, used as it is: no `url.<base>.insteadOf` rewriting, no fetch
    /// refspec of its own (`git_remote_create_with_opts`). Skipping the rewrite also skips the
    /// regular-expression scan of the configuration it needs, whose match data libgit2 1.5
    /// leaks on every remote made (about 20 KB each: a long-running app syncs thousands).
    public init(repository: Repository, url: String) throws(GitError) {
        self.handle = try Self.make(repository, url)
        self.repository = repository
        self.url = url
    }

    private static func make(_ repository: Repository, _ url: String) throws(GitError) -> OpaquePointer {
        var options = git_remote_create_options()
        try check(
            git_remote_create_options_init(&options, UInt32(GIT_REMOTE_CREATE_OPTIONS_VERSION)),
            "git_remote_create_options_init")
        options.repository = repository.handle
        options.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF.rawValue | GIT_REMOTE_CREATE_SKIP_DEFAULT_FETCHSPEC.rawValue
        var remote: OpaquePointer?
        try check(git_remote_create_with_opts(&remote, url, &options), "git_remote_create_with_opts")
        return remote!
    }

    deinit {
        git_remote_free(handle)
    }

    /// Downloads what `refspecs` name and updates the local references they map to
    /// (`git_remote_fetch`; no tags, no `FETCH_HEAD`). A source reference the remote lacks
    /// is no error: its destination is left as it was. Over SSH, `ssh` says which keys to offer
    /// (without it, the agent's, all of them).
    public func fetch(
        _ refspecs: [String], credentials: Credentials? = nil, ssh: SSHAccess? = nil,
        progress: ((TransferProgress) -> Void)? = nil
    ) throws(GitError) {
        try TrustedCertificates.useConfigured(for: url, in: repository)
        var options = git_fetch_options()
        try check(git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION)), "git_fetch_options_init")
        options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
        options.update_fetchhead = 0
        if !headers.isEmpty { options.follow_redirects = GIT_REMOTE_REDIRECT_NONE }
        let (result, session) = transfer(credentials: credentials, ssh: ssh, progress: progress) { custom, session in
            session.install(in: &options.callbacks)
            options.custom_headers = custom
            return withStringArray(refspecs) { array in git_remote_fetch(handle, array, &options, "fetch") }
        }
        lastSSHAttempt = withExtendedLifetime(session) { session.sshAttempt }
        passwordAsked = session.offeredCredentials
        do {
            try check(result, "git_remote_fetch")
        } catch {
            throw session.explain(error)
        }
    }

    /// Uploads what `refspecs` name (`git_remote_push`). Returns what the server said: a
    /// reference it refused comes back in ``PushOutcome/rejections``, not as a throw, because
    /// that is the only place libgit2 reports it. When the remote advertises every reference
    /// already where the push would set it, nothing is sent (``PushOutcome/alreadyOnRemote``);
    /// when it advertises one this push would not fast-forward, libgit2 refuses before
    /// sending anything (a ``GitError/Reason/nonFastForward`` failure). A failure carries the
    /// reason the remote callbacks saw, as a fetch's does (``GitError/reason``).
    public func push(
        _ refspecs: [String], credentials: Credentials? = nil, ssh: SSHAccess? = nil,
        progress: ((TransferProgress) -> Void)? = nil
    ) throws(GitError) -> PushOutcome {
        try TrustedCertificates.useConfigured(for: url, in: repository)
        var options = git_push_options()
        try check(git_push_options_init(&options, UInt32(GIT_PUSH_OPTIONS_VERSION)), "git_push_options_init")
        if !headers.isEmpty { options.follow_redirects = GIT_REMOTE_REDIRECT_NONE }
        let (result, session) = transfer(credentials: credentials, ssh: ssh, progress: progress) { custom, session in
            session.install(in: &options.callbacks)
            options.custom_headers = custom
            return withStringArray(refspecs) { array in git_remote_push(handle, array, &options) }
        }
        lastSSHAttempt = session.sshAttempt
        passwordAsked = session.offeredCredentials
        // libgit2 leaves a push that failed connected for pushing; a fetch next would reuse
        // that connection's advertisement. Disconnecting keeps the HTTP connection itself.
        if result < 0 { git_remote_disconnect(handle) }
        return try withExtendedLifetime(session) { () throws(GitError) -> PushOutcome in
            if session.alreadyOnRemote { return PushOutcome(alreadyOnRemote: true) }
            do throws(GitError) {
                try check(result, "git_remote_push")
            } catch {
                throw session.explain(error)
            }
            return PushOutcome(rejections: session.rejections, remoteMessages: session.remoteMessages)
        }
    }

    /// Runs a fetch or a push (`body`, given ``headers`` as libgit2 takes them and a new
    /// session for its callbacks) with the remote's timeout, and notes the endpoints its
    /// connections reached. Made again once, on a new connection, if the server had closed
    /// the one kept for it: then a new remote replaces the handle, since libgit2 gives no way
    /// to drop its HTTP client's connection.
    private func transfer(
        credentials: Credentials?, ssh: SSHAccess?, progress: ((TransferProgress) -> Void)?,
        _ body: (git_strarray, RemoteSession) -> Int32
    ) -> (Int32, RemoteSession) {
        keptConnectionRetries = 0
        while true {
            let session = RemoteSession(credentials: credentials, ssh: ssh, progress: progress)
            let log = SocketStream.ConnectionLog()
            let result = SocketStream.logging(into: log) {
                SocketStream.withTimeout(timeout) {
                    withStringArray(headers) { custom in body(custom.pointee, session) }
                }
            }
            endpointsReached = log.endpoints
            guard result < 0, log.keptConnectionClosed, keptConnectionRetries == 0,
                let renewed = try? Self.make(repository, url)
            else { return (result, session) }
            git_remote_free(handle)
            handle = renewed
            keptConnectionRetries += 1
        }
    }

    /// The references the remote advertises, name → commit (`git_remote_connect`,
    /// `git_remote_ls`).
    public func references(credentials: Credentials? = nil, ssh: SSHAccess? = nil) throws(GitError) -> [String: ObjectID] {
        try TrustedCertificates.useConfigured(for: url, in: repository)
        var callbacks = git_remote_callbacks()
        try check(git_remote_init_callbacks(&callbacks, UInt32(GIT_REMOTE_CALLBACKS_VERSION)), "git_remote_init_callbacks")
        let session = RemoteSession(credentials: credentials, ssh: ssh, progress: nil)
        session.install(in: &callbacks)
        return try withExtendedLifetime(session) { () throws(GitError) -> [String: ObjectID] in
            let connected = SocketStream.withTimeout(timeout) { git_remote_connect(handle, GIT_DIRECTION_FETCH, &callbacks, nil, nil) }
            lastSSHAttempt = session.sshAttempt
            do throws(GitError) {
                try check(connected, "git_remote_connect")
            } catch {
                throw session.explain(error)
            }
            defer { git_remote_disconnect(handle) }
            var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
            var count = 0
            try check(git_remote_ls(&heads, &count, handle), "git_remote_ls")
            var found: [String: ObjectID] = [:]
            for position in 0..<count {
                guard let head = heads?[position]?.pointee else { continue }
                found[String(cString: head.name)] = ObjectID(head.oid)
            }
            return found
        }
    }
}

/// Calls `body` with `strings` as a `git_strarray` that lives for the call.
func withStringArray<T>(_ strings: [String], _ body: (UnsafePointer<git_strarray>) -> T) -> T {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    defer { pointers.forEach { free($0) } }
    return pointers.withUnsafeMutableBufferPointer { buffer in
        var array = git_strarray(strings: buffer.baseAddress, count: buffer.count)
        return body(&array)
    }
}
