import CairnSystem

/// A failure found in a file's content or in what was asked of it.
func failure(
    _ code: GitFormatError.Code,
    _ message: String,
    _ operation: String,
    path: String? = nil,
    file: String = #fileID,
    line: Int = #line
) -> GitFormatError {
    GitFormatError(
        code: code, message: message, operation: operation, path: path,
        location: GitFormatError.SourceLocation(file: file, line: line))
}

/// A failed system call on `path`, with the reason from `errno`.
func posixFailure(_ call: String, _ path: String, file: String = #fileID, line: Int = #line) -> GitFormatError {
    posixFailure(call, path, .current, file: file, line: line)
}

/// A failed system call on `path`, with the reason it returned.
func posixFailure(
    _ call: String, _ path: String, _ error: Syscalls.Errno, file: String = #fileID, line: Int = #line
) -> GitFormatError {
    GitFormatError(
        code: .systemCall, message: "\(call) \(path): \(error)",
        operation: call, path: path, systemErrorCode: error.code,
        location: GitFormatError.SourceLocation(file: file, line: line))
}
