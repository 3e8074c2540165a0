#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    let code = errno
    return GitFormatError(
        code: .systemCall, message: "\(call) \(path): \(String(cString: strerror(code)))",
        operation: call, path: path, systemErrorCode: code,
        location: GitFormatError.SourceLocation(file: file, line: line))
}
