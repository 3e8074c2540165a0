import CairnCore
import Subprocess
import SystemPackage

/// One run of another program to its end — git (bundles, `for-each-ref`) and rclone (the
/// object store) — with what it printed, each stream kept up to a limit.
struct ProgramRun: Sendable {
    let status: Int32?
    let stdout: String
    let stderr: String

    var succeeded: Bool { status == 0 }

    /// The last line of stderr, for a one-line message.
    var lastError: String {
        stderr.split(separator: "\n").last(where: { !$0.allSatisfy(\.isWhitespace) }).map(String.init) ?? "(nothing on stderr)"
    }

    /// Runs `executable` (a path, or a name looked up in PATH) with `arguments`, in the
    /// inherited environment with `environment` over it.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        directory: String? = nil, outputLimit: Int = 16 * 1_048_576
    ) async throws(CairnError) -> ProgramRun {
        let program: Executable = executable.contains("/") ? .path(FilePath(executable)) : .name(executable)
        var overrides: [Environment.Key: String?] = [:]
        for (key, value) in environment { overrides[Environment.Key(stringLiteral: key)] = value }
        do {
            let result = try await Subprocess.run(
                program, arguments: Arguments(arguments), environment: .inherit.updating(overrides),
                workingDirectory: directory.map { FilePath($0) }, output: .string(limit: outputLimit), error: .string(limit: 1_048_576))
            let status: Int32? = if case .exited(let code) = result.terminationStatus { code } else { nil }
            return ProgramRun(status: status, stdout: result.standardOutput, stderr: result.standardError)
        } catch {
            throw CairnError(.notFound, "cannot run \(executable): \(error)")
        }
    }
}
