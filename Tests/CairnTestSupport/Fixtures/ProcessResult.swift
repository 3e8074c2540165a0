import Foundation

/// What a finished program said and how it ended.
public struct ProcessResult: Sendable {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

/// Runs a program to its end, with `input` on stdin (none: stdin is empty), and returns its
/// status and output. A program that exits before reading all its input is fine: SIGPIPE is
/// ignored, so writing the rest fails quietly instead of killing the test runner.
@discardableResult
public func runProcess(
    _ executable: String, _ arguments: [String], input: String? = nil,
    environment: [String: String] = [:]
) throws -> ProcessResult {
    signal(SIGPIPE, SIG_IGN)
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    if let input {
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
    } else {
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus,
        stdout: String(decoding: out, as: UTF8.self),
        stderr: String(decoding: err, as: UTF8.self))
}

/// Runs the git command-line tool in `directory`, as a user of a store would.
@discardableResult
public func git(_ arguments: String..., in directory: String) throws -> ProcessResult {
    try runProcess("/usr/bin/git", ["-C", directory] + arguments)
}
