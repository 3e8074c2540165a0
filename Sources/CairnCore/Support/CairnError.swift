import CairnMerge
import Git

/// An error of the store: a code for programs, one line for people (what was wrong), what
/// to do about it as a value (``remedy``) that a program words in its own terms, the
/// underlying cause when there is one, and where it was raised.
///
/// ``description`` is the message with the remedy in plain words; ``detailedDescription()``
/// adds the code, the location and the chain of causes, for logs and bug reports.
public struct CairnError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure, for programs that react to it.
    public var code: Code
    /// One line: what was wrong (and what to do, when no command of a program is involved).
    public var message: String
    /// The way out that takes a step of the program (a command to run, an argument to give),
    /// if any; the program words it.
    public var remedy: Remedy?
    /// The error that caused this one (a `GitError`, a `JSONParseError`, an errno), if any.
    public var cause: (any Error & Sendable)?
    /// Where the error was raised.
    public var location: SourceLocation

    public init(
        _ code: Code, _ message: String, remedy: Remedy? = nil, cause: (any Error & Sendable)? = nil,
        function: String = #function, file: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.remedy = remedy
        self.cause = cause
        self.location = SourceLocation(function: function, file: file, line: line)
    }

    /// The message, then the remedy in plain words.
    public var description: String {
        guard let remedy else { return message }
        return message + remedy.description
    }

    /// A place in Cairn's source.
    public struct SourceLocation: Sendable, Hashable {
        /// The function that raised the error.
        public var function: String
        public var file: String
        public var line: Int

        public init(function: String, file: String, line: Int) {
            self.function = function
            self.file = file
            self.line = line
        }
    }
}

extension CairnError {
    static func invalid(_ error: PathError) -> CairnError {
        CairnError(.invalidInput, error.description, cause: error)
    }

    /// A server whose TLS certificate this machine does not trust, over git's HTTPS or the LFS
    /// client's: `failed` says what failed, `reason` is the TLS library's. Not a network
    /// failure: the next try meets the same certificate.
    static func certificateNotTrusted(_ failed: String, reason: String, cause: (any Error)? = nil) -> CairnError {
        CairnError(
            .authentication,
            "\(failed): the server's certificate is not trusted on this machine (\(reason)); check the URL, or add the CA that signed it to the system's certificates (update-ca-certificates) or name its certificate in GIT_SSL_CAINFO, then try again",
            cause: cause)
    }

    /// Wraps a libgit2 failure in the store's terms.
    package static func git(
        _ error: GitError, doing what: String,
        function: String = #function, file: String = #fileID, line: Int = #line
    ) -> CairnError {
        if error.isDamage { return damaged(error, doing: what, function: function, file: file, line: line) }
        let code: Code
        let message: String
        switch error.code {
        case .locked:
            code = .busy
            message =
                "\(what): a git lock file exists (\(error.message)); another git process is using the store — if none is, remove the .lock file"
        case .notFound:
            code = .notFound
            message = "\(what): \(error.message)"
        case _ where error.systemErrorCode != nil:
            // A write, fsync or rename of Cairn's own in .git: the file system refused.
            code = .io
            message = "\(what): \(error.message)\(FileSystem.hint(errno: error.systemErrorCode ?? 0))"
        case _ where error.isSystemFailure && error.diskFailureCode != nil:
            // One of libgit2's writes: a full or failing disk.
            code = .io
            message = "\(what): \(error.message)\(FileSystem.hint(errno: error.diskFailureCode ?? 0))"
        default:
            code = .corrupt
            message = "\(what): \(error.message)"
        }
        return CairnError(code, message, cause: error, function: function, file: file, line: line)
    }

    /// The store's git files are damaged: said as such, with the way out. Nothing read from
    /// a damaged object is ever shown (libgit2 fails instead of returning its bytes).
    static func damaged(
        _ error: GitError, doing what: String,
        function: String = #function, file: String = #fileID, line: Int = #line
    ) -> CairnError {
        CairnError(
            .corrupt, "\(what): corrupt store (\(error.message))", remedy: .repair, cause: error,
            function: function, file: file, line: line)
    }
}

extension GitError {
    /// The errno of a full or failing disk (``FileSystem/isDiskFailure(_:)``) libgit2 reported,
    /// if that is the reason.
    fileprivate var diskFailureCode: Int32? {
        guard case .system(let code)? = reason, FileSystem.isDiskFailure(code) else { return nil }
        return code
    }
}
