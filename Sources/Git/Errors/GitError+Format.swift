import GitFormat

extension GitError {
    /// A failure of reading or writing one of git's files (``GitFormatError``), as a failure
    /// of this module: the same message and operation, the code libgit2 would give it, and
    /// the `errno` of a failed system call.
    init(_ error: GitFormatError) {
        let code: Code =
            switch error.code {
            case .notFound: .notFound
            case .locked: .locked
            case .modified: .modified
            case .exists: .exists
            case .invalidUpdate: .invalidSpec
            default: .generic
            }
        self.init(
            code: code, message: error.message, function: error.operation,
            location: SourceLocation(file: error.location.file, line: error.location.line))
        systemErrorCode = error.systemErrorCode
        if let errno = error.systemErrorCode { reason = .system(errno: errno) }
    }
}

/// Runs `body`, which reads or writes git's files through GitFormat, its failure thrown as a
/// ``GitError``.
func converting<T>(_ body: () throws(GitFormatError) -> T) throws(GitError) -> T {
    do {
        return try body()
    } catch {
        throw GitError(error)
    }
}
