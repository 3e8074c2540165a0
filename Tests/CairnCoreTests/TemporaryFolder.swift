import Foundation

/// A folder under the system's temporary folder, removed when the value goes away.
final class TemporaryFolder {
    let path: String

    init(_ label: String = "cairn-test") {
        let template = NSTemporaryDirectory() + "\(label)-XXXXXX"
        var bytes = Array(template.utf8CString)
        path = bytes.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Runs a program to its end and returns its status and output.
@discardableResult
func run(_ executable: String, _ arguments: [String], in directory: String? = nil,
         environment: [String: String]? = nil, input: String? = nil) throws -> (status: Int32, stdout: String, stderr: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    if let environment { process.environment = environment }
    let stdout = Pipe()
    let stderr = Pipe()
    let stdin = Pipe()
    process.standardOutput = stdout
    process.standardError = stderr
    process.standardInput = stdin
    try process.run()
    if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
    try stdin.fileHandleForWriting.close()
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    let err = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
}

/// The git command-line tool, as a user of a store would run it.
func git(_ arguments: String..., in directory: String) throws -> (status: Int32, stdout: String, stderr: String) {
    try run("/usr/bin/git", ["-C", directory] + arguments)
}
