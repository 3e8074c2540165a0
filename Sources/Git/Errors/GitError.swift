import CGit2

/// An error reported by libgit2: its result code, its one-line message, the C function
/// that returned it, where in Cairn that call was made, and, when it is known, why
/// (``reason``: an HTTP status, a host key, a refused authentication, an errno…).
public struct GitError: Error, Sendable, CustomStringConvertible {
    /// The result code libgit2 returned (a `git_error_code`, such as `GIT_ENOTFOUND`).
    public var code: Code
    /// libgit2's own message for the failure (`git_error_last()`), or a description of the code.
    public var message: String
    /// The libgit2 function that failed, such as `git_repository_open_ext`.
    public var function: String
    /// Where in Cairn the call was made.
    public var location: SourceLocation
    /// The class libgit2 gave the failure (`git_error_t`: network, HTTP, SSL, …); 0 when none.
    public var category: Int32 = 0
    /// The `errno` of a failed system call that Cairn made itself (a write, an fsync, a
    /// rename in `.git`); nil for libgit2's failures.
    public var systemErrorCode: Int32?
    /// Why the call failed, when this module knows: set by the remote callbacks that saw it
    /// happen, or read once from libgit2's result (see ``Reason``). Callers decide on this,
    /// never on ``message``, which is for people.
    public var reason: Reason?

    public init(code: Code, message: String, function: String, location: SourceLocation) {
        self.code = code
        self.message = message
        self.function = function
        self.location = location
    }

    public var description: String { "\(function): \(message)" }

    /// Whether the operating system refused a call (a socket that could not connect, a file
    /// that could not be opened).
    public var isSystemFailure: Bool { category == GIT_ERROR_OS.rawValue }

    /// Whether libgit2's SSH transport reported the failure (libssh2, or what the server wrote
    /// on stderr instead of answering).
    public var isSSHFailure: Bool { category == GIT_ERROR_SSH.rawValue }

    /// Whether the failure came from the network on the way to a remote (a connection refused,
    /// cut or timed out, an HTTP or TLS failure): the kind worth trying again later. Not a
    /// refused authentication, nor a server's certificate or host key that failed its check:
    /// the next try meets the same.
    public var isNetworkFailure: Bool {
        [GIT_ERROR_NET, GIT_ERROR_HTTP, GIT_ERROR_SSL, GIT_ERROR_SSH].contains { $0.rawValue == category }
            && code != .auth && code != .certificate
    }

    /// A libgit2 result code as a Swift value that can be matched in `catch` clauses:
    /// `catch let error as GitError where error.code == .notFound`, or `case .locked = error`.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        public static let generic = Code(rawValue: GIT_ERROR.rawValue)
        public static let notFound = Code(rawValue: GIT_ENOTFOUND.rawValue)
        public static let exists = Code(rawValue: GIT_EEXISTS.rawValue)
        public static let ambiguous = Code(rawValue: GIT_EAMBIGUOUS.rawValue)
        public static let unbornBranch = Code(rawValue: GIT_EUNBORNBRANCH.rawValue)
        public static let locked = Code(rawValue: GIT_ELOCKED.rawValue)
        public static let modified = Code(rawValue: GIT_EMODIFIED.rawValue)
        public static let conflict = Code(rawValue: GIT_ECONFLICT.rawValue)
        public static let invalidSpec = Code(rawValue: GIT_EINVALIDSPEC.rawValue)
        public static let auth = Code(rawValue: GIT_EAUTH.rawValue)
        public static let endOfFile = Code(rawValue: GIT_EEOF.rawValue)
        public static let certificate = Code(rawValue: GIT_ECERTIFICATE.rawValue)
        public static let nonFastForward = Code(rawValue: GIT_ENONFASTFORWARD.rawValue)
        public static let mismatch = Code(rawValue: GIT_EMISMATCH.rawValue)

        public var description: String { "libgit2 error \(rawValue)" }
    }

    /// Where a call into libgit2 was made from.
    public struct SourceLocation: Sendable, Hashable {
        public var file: String
        public var line: Int
        public init(file: String, line: Int) {
            self.file = file
            self.line = line
        }
    }
}

/// Lets a code be matched against an error: `if case GitError.Code.notFound = error { … }`.
public func ~= (code: GitError.Code, error: any Error) -> Bool {
    (error as? GitError)?.code == code
}
