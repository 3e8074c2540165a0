import CGit2

/// Turns a libgit2 result code into a Swift throw.
///
/// Every libgit2 call in this module goes through here: a negative result becomes a
/// ``GitError`` that carries libgit2's own message (`git_error_last()`), the name of the
/// C function, the location of the call, and the reason read from them (see
/// ``GitError/Reason/init(libgit2Message:category:code:function:)``). Non-negative results
/// are returned unchanged, since some functions use them as counts or booleans.
@discardableResult
func check(
    _ result: Int32,
    _ function: String,
    file: String = #fileID,
    line: Int = #line
) throws(GitError) -> Int32 {
    guard result < 0 else { return result }
    let last = lastError()
    var error = GitError(
        code: GitError.Code(rawValue: result),
        message: last?.message ?? "failed with code \(result)",
        function: function,
        location: GitError.SourceLocation(file: file, line: line)
    )
    error.category = last?.category ?? 0
    error.reason = GitError.Reason(libgit2Message: last?.message, category: error.category, code: error.code, function: function)
    throw error
}

/// A failure found by this module itself (not returned by libgit2), in the same shape.
func failure(
    _ code: GitError.Code,
    _ message: String,
    _ function: String,
    file: String = #fileID,
    line: Int = #line
) -> GitError {
    GitError(
        code: code, message: message, function: function,
        location: GitError.SourceLocation(file: file, line: line))
}

/// `git_error_last()`: the message and class libgit2 kept for the last failure on this thread.
private func lastError() -> (message: String?, category: Int32)? {
    guard let error = git_error_last() else { return nil }
    let message = error.pointee.message.map { String(cString: $0) }
    return (message?.isEmpty == false ? message : nil, error.pointee.klass)
}
