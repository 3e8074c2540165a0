import CairnTestSupport
import Foundation

/// Runs the built `cairn` tool against a temporary home, as a user at a shell would.
package final class CLI {
    package let home: String
    private let folder: TemporaryFolder

    package init() {
        folder = TemporaryFolder("cairn-cli")
        home = folder.path + "/home"
    }

    /// A scratch file path under the temporary folder.
    package func scratch(_ name: String) -> String { folder.path + "/" + name }

    /// The tool built beside the test bundle.
    package static let executable: String = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("cairn").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("cairn").path
    }()

    /// Runs `cairn --home HOME ARGS…`, with `input` on stdin.
    @discardableResult
    package func callAsFunction(_ arguments: String..., input: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
        try runProcess(Self.executable, ["--home", home] + arguments, input: input, environment: environment)
    }

    /// Starts `cairn` without waiting for it.
    package func start(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess {
        let process = ChildProcess()
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
    package func git(_ uid: String, _ arguments: String...) throws -> ProcessResult {
        try runProcess("/usr/bin/git", ["-C", home + "/" + uid] + arguments)
    }

    /// Every file of a store's working tree with its content, to show nothing changed.
    package func snapshot(_ uid: String) throws -> [String: Data] {
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
