import Foundation

/// Runs the built `cairn` tool against a temporary home, as a user at a shell would.
final class CLI {
    let home: String
    private let root: String

    init() {
        // A command that refuses its input exits before reading all of it; writing the
        // rest must not kill the test runner.
        signal(SIGPIPE, SIG_IGN)
        var template = Array((NSTemporaryDirectory() + "cairn-cli-XXXXXX").utf8CString)
        root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        home = root + "/home"
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// A scratch file path under the temporary folder.
    func scratch(_ name: String) -> String { root + "/" + name }

    /// The tool built beside the test bundle.
    static let executable: String = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("cairn").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("cairn").path
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `cairn --home HOME ARGS…`, with `input` on stdin.
    @discardableResult
    func callAsFunction(_ arguments: String..., input: String? = nil, environment: [String: String] = [:]) throws -> Result {
        try run(Self.executable, ["--home", home] + arguments, input: input, environment: environment)
    }

    /// Starts `cairn` without waiting for it.
    func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["--home", home] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `git -C store ARGS…`.
    func git(_ uid: String, _ arguments: String...) throws -> Result {
        try run("/usr/bin/git", ["-C", home + "/" + uid] + arguments)
    }

    func run(_ executable: String, _ arguments: [String], input: String? = nil,
             environment: [String: String] = [:]) throws -> Result {
        let process = Process()
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
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: out, as: UTF8.self),
                      stderr: String(decoding: err, as: UTF8.self))
    }

    /// Every file of a store's working tree with its content, to show nothing changed.
    func snapshot(_ uid: String) throws -> [String: Data] {
        let base = home + "/" + uid
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: base)
        while let name = enumerator?.nextObject() as? String {
            if name == ".git" || name.hasPrefix(".git/") {
                if name == ".git" { enumerator?.skipDescendants() }
                continue
            }
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: base + "/" + name, isDirectory: &isFolder)
            files[name] = isFolder.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: base + "/" + name))
        }
        files[".git/HEAD-commit"] = Data(try git(uid, "rev-parse", "HEAD").stdout.utf8)
        return files
    }
}
