import CairnTestSupport
import CairnToolTestSupport
import Foundation

/// The folder one fault scenario works in: two devices of user u1 (`a`, the one the faults
/// hit, and `b`, the other device), each a home, and their remote, a bare repository.
///
/// A site is always at the same path: its template is built there and copied away, and
/// copied back before each fault, so the stores' remote URLs (absolute paths) stay right.
struct FaultSite: Sendable {
    let path: String

    /// Every command runs without network retries: a path remote never needs them.
    static let environment = ["CAIRN_SYNC_RETRY": "none"]

    /// `nice`, which runs every program of the harness at a lower priority: it keeps both
    /// cores busy for minutes, and the suites beside it (with time limits) keep their pace.
    static let nice = "/usr/bin/nice"

    /// Runs a program through ``nice``.
    @discardableResult
    static func run(
        _ executable: String, _ arguments: [String], input: String? = nil,
        environment: [String: String] = [:]
    ) throws -> ProcessResult {
        try runProcess(nice, ["-n", "10", executable] + arguments, input: input, environment: environment)
    }

    var remote: String { path + "/server/u1.git" }

    func home(_ device: String) -> String { path + "/" + device }

    func store(_ device: String) -> String { home(device) + "/u1" }

    /// `cairn --home DEVICE --user u1 ARGUMENTS…`.
    func arguments(_ device: String, _ arguments: [String]) -> [String] {
        ["--home", home(device), "--user", "u1"] + arguments
    }

    /// Runs the tool on a device, as a user would.
    @discardableResult
    func cairn(_ device: String, _ arguments: [String], input: String? = nil) throws -> ProcessResult {
        try Self.run(CLI.executable, self.arguments(device, arguments), input: input, environment: Self.environment)
    }

    /// Runs the tool on a device and fails when the command does.
    func must(_ device: String, _ arguments: String..., input: String? = nil) throws {
        let result = try cairn(device, arguments, input: input)
        guard result.status == 0 else {
            throw FaultSiteError(message: "cairn \(arguments.joined(separator: " ")) on \(device): \(result.stderr)")
        }
    }

    /// `git -C STORE ARGUMENTS…` on a device's store.
    func git(_ device: String, _ arguments: String...) throws -> ProcessResult {
        try Self.run("/usr/bin/git", ["-C", store(device)] + arguments)
    }

    /// `git --git-dir REMOTE ARGUMENTS…`.
    func gitRemote(_ arguments: String...) throws -> ProcessResult {
        try Self.run("/usr/bin/git", ["--git-dir", remote] + arguments)
    }

    /// What `rev` names in a device's store (`HEAD^{tree}`), or nil when it names nothing.
    func resolve(_ device: String, _ rev: String) throws -> String? {
        let result = try git(device, "rev-parse", "--verify", "-q", rev)
        return result.status == 0 ? result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    /// What `rev` names in the remote, or nil.
    func resolveRemote(_ rev: String) throws -> String? {
        let result = try gitRemote("rev-parse", "--verify", "-q", rev)
        return result.status == 0 ? result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    /// The files of a device's working tree (outside `.git`) with their bytes. The temporary
    /// files of killed writes (`.cairn-tmp-*`, kept out of `git status` by the store, removed
    /// by the next scan) are listed apart.
    func files(_ device: String) -> (documents: [String: Data], temporary: [String]) {
        let base = store(device)
        var documents: [String: Data] = [:]
        var temporary: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: base)
        while let name = enumerator?.nextObject() as? String {
            if name == ".git" {
                enumerator?.skipDescendants()
                continue
            }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: base + "/" + name, isDirectory: &isFolder), !isFolder.boolValue else {
                continue
            }
            if (name as NSString).lastPathComponent.hasPrefix(".cairn-tmp-") {
                temporary.append(name)
            } else {
                documents[name] = FileManager.default.contents(atPath: base + "/" + name) ?? Data()
            }
        }
        return (documents, temporary)
    }

    /// Replaces the site with a copy of `template` (`cp -a`, which keeps the stores' stat data
    /// as far as a copy can).
    func restore(from template: String) throws {
        let result = try Self.run("/bin/sh", ["-c", "rm -rf \"$1\" && cp -a \"$2\" \"$1\"", "restore", path, template])
        guard result.status == 0 else { throw FaultSiteError(message: "cannot copy \(template): \(result.stderr)") }
    }

    /// Copies the site to `template`.
    func save(to template: String) throws {
        let result = try Self.run("/bin/sh", ["-c", "rm -rf \"$2\" && cp -a \"$1\" \"$2\"", "save", path, template])
        guard result.status == 0 else { throw FaultSiteError(message: "cannot copy to \(template): \(result.stderr)") }
    }
}
