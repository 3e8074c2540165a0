import CairnMerge
import Git

/// An error of the store: a code for programs, one line for people (what was wrong and what
/// to do), the underlying cause when there is one, and where it was raised.
public struct CairnError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure, for programs that react to it.
    public var code: Code
    /// One line: what was wrong and what to do about it.
    public var message: String
    /// The error that caused this one (a ``GitError``, a ``JSONParseError``, an errno), if any.
    public var cause: (any Error & Sendable)?
    /// Where the error was raised.
    public var location: SourceLocation

    public init(
        _ code: Code, _ message: String, cause: (any Error & Sendable)? = nil,
        file: String = #fileID, line: Int = #line
    ) {
        self.code = code
        self.message = message
        self.cause = cause
        self.location = SourceLocation(file: file, line: line)
    }

    public var description: String { message }

    public struct SourceLocation: Sendable, Hashable {
        public var file: String
        public var line: Int
    }

    public enum Code: Sendable, Hashable {
        /// A path, an ID, a document or an argument that Cairn refuses.
        case invalidInput
        /// No such document, revision, user or store.
        case notFound
        /// The thing to create exists already.
        case alreadyExists
        /// Another process holds the store's lock; trying again later may work.
        case busy
        /// The store's files are not what Cairn wrote (not a store, unreadable objects).
        case corrupt
        /// The file system refused (permissions, disk full, I/O error).
        case io
        /// The remote could not be reached or the connection broke; trying again later may work.
        case network
        /// The remote refused the credentials, or asked for some and none were given.
        case authentication
        /// The remote refused the push (its hook, its rules); trying again will not help until
        /// what it names is fixed.
        case refused
    }
}

extension CairnError {
    static func invalid(_ error: PathError) -> CairnError {
        CairnError(.invalidInput, error.description, cause: error)
    }

    /// Wraps a libgit2 failure in the store's terms.
    package static func git(_ error: GitError, doing what: String) -> CairnError {
        if error.isDamage { return damaged(error, doing: what) }
        switch error.code {
        case .locked:
            return CairnError(
                .busy,
                "\(what): a git lock file exists (\(error.message)); another git process is using the store — if none is, remove the .lock file",
                cause: error)
        case .notFound:
            return CairnError(.notFound, "\(what): \(error.message)", cause: error)
        case _ where error.systemErrorCode != nil:
            // A write, fsync or rename of Cairn's own in .git: the file system refused.
            return CairnError(.io, "\(what): \(error.message)\(FileSystem.hint(errno: error.systemErrorCode ?? 0))", cause: error)
        default:
            if error.isSystemFailure, case .system(let code)? = error.reason, FileSystem.isDiskFailure(code) {
                // One of libgit2's writes: a full or failing disk.
                return CairnError(.io, "\(what): \(error.message)\(FileSystem.hint(errno: code))", cause: error)
            }
            return CairnError(.corrupt, "\(what): \(error.message)", cause: error)
        }
    }

    /// The store's git files are damaged: said as such, with the way out. Nothing read from
    /// a damaged object is ever shown (libgit2 fails instead of returning its bytes).
    static func damaged(_ error: GitError, doing what: String) -> CairnError {
        CairnError(
            .corrupt,
            "\(what): corrupt store (\(error.message)); run cairn repair to restore it from its remote, keeping the documents not yet pushed",
            cause: error)
    }
}
