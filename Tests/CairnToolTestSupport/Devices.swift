import CairnMerge
import CairnTestSupport
import Foundation
import Testing

/// Devices of users syncing through bare repositories on this machine.
package final class Devices {
    package let folder = TemporaryFolder("cairn-devices")
    /// The schema set the server checks pushes against (nil: none).
    package let schema: String?
    /// A remote nobody answers (port 9): a device set to it is offline.
    package static let offline = "http://127.0.0.1:9/git/u1.git"

    /// The server's repositories for `users`, checking pushes against `schema`.
    package init(schema: String? = nil, users: [String] = ["u1"], sourceLocation: SourceLocation = #_sourceLocation) throws {
        self.schema = schema
        let created = try runBounded(
            CLI.executable,
            ["server", "init", folder.path + "/server"] + users
                + (schema.map { ["--schema", $0] } ?? []))
        #expect(created.status == 0, "server init: \(created.stderr)", sourceLocation: sourceLocation)
    }

    package func remote(_ uid: String = "u1") -> String { folder.path + "/server/\(uid).git" }
    package func home(_ device: String) -> String { folder.path + "/" + device }
    package func store(_ device: String, _ uid: String = "u1") -> String { home(device) + "/" + uid }

    /// Runs `cairn --home DEVICE [--user USER] ARGS…` (no user: the active one), network
    /// retries off, in an environment without the test's own Cairn settings.
    @discardableResult
    package func on(
        _ device: String, _ arguments: String..., user: String? = "u1", input: String? = nil,
        environment: [String: String] = [:]
    ) throws -> ProcessResult {
        try on(device, arguments, user: user, input: input, environment: environment)
    }

    /// ``on(_:_:user:input:environment:)`` with the arguments as an array.
    @discardableResult
    package func on(
        _ device: String, _ arguments: [String], user: String? = "u1", input: String? = nil,
        environment: [String: String] = [:]
    ) throws -> ProcessResult {
        let prefix = ["--home", home(device)] + (user.map { ["--user", $0] } ?? [])
        return try runBounded(
            CLI.executable, prefix + arguments, input: input,
            environment: environment.merging(["CAIRN_SYNC_RETRY": "none"]) { $1 }, limit: 60)
    }

    /// The first device of `uid`: its store, with the set and the remote, pushed once (signed up online).
    package func start(_ device: String, _ uid: String = "u1", sourceLocation: SourceLocation = #_sourceLocation) throws {
        let created = try on(device, ["init", uid] + (schema.map { ["--schema", $0] } ?? []) + ["--remote", remote(uid)], user: nil)
        #expect(created.status == 0, "init on \(device): \(created.stderr)", sourceLocation: sourceLocation)
        try sync(device, uid, sourceLocation: sourceLocation)
    }

    /// Another device of u1, restored from the remote.
    package func clone(_ device: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let cloned = try on(device, "clone", remote(), user: nil)
        #expect(cloned.status == 0, "clone on \(device): \(cloned.stderr)", sourceLocation: sourceLocation)
    }

    /// Writes a document; it must be accepted.
    package func put(
        _ device: String, _ path: String, _ json: String, user: String = "u1",
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try on(device, "put", path, user: user, input: json)
        #expect(result.status == 0, "put \(path) on \(device): \(result.stderr)", sourceLocation: sourceLocation)
    }

    /// `cairn sync`, which must end with `status` (0: synced, 75: the remote unreachable).
    @discardableResult
    package func sync(
        _ device: String, _ uid: String = "u1", expecting status: Int32 = 0, environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> ProcessResult {
        let result = try on(device, "sync", user: uid, environment: environment)
        #expect(result.status == status, "sync on \(device): \(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        return result
    }

    package func setRemote(_ device: String, _ url: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try on(device, "remote", "set", url)
        #expect(result.status == 0, "remote set on \(device): \(result.stderr)", sourceLocation: sourceLocation)
    }

    /// A document as `cairn get` prints it, parsed; nil when `get` fails.
    package func get(_ device: String, _ path: String, user: String? = "u1") throws -> JSONValue? {
        let result = try on(device, "get", path, user: user)
        guard result.status == 0 else { return nil }
        return try? JSONParser().parse(result.stdout)
    }

    /// The IDs `cairn ls` prints (nil when it fails).
    package func ids(_ device: String, _ collection: String, user: String? = "u1") throws -> [String]? {
        let result = try on(device, "ls", collection, user: user)
        guard result.status == 0 else { return nil }
        return result.stdout.split(separator: "\n").map(String.init)
    }

    /// `git -C STORE ARGS…`, its output trimmed.
    package func git(_ device: String, _ arguments: String..., user: String = "u1") throws -> String {
        try runProcess("/usr/bin/git", ["-C", store(device, user)] + arguments).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `git --git-dir REMOTE ARGS…`.
    package func remoteGit(_ arguments: String..., uid: String = "u1") throws -> ProcessResult {
        try runProcess("/usr/bin/git", ["--git-dir", remote(uid)] + arguments)
    }

    package func remoteMain(_ uid: String = "u1") throws -> String {
        try remoteGit("rev-parse", "--verify", "-q", "refs/heads/main", uid: uid).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    package func remoteCommitCount(_ uid: String = "u1") throws -> Int {
        Int(try remoteGit("rev-list", "--count", "main", uid: uid).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// A document on the remote's `main`, parsed; nil when it is not there.
    package func remoteDocument(_ path: String, uid: String = "u1") throws -> JSONValue? {
        let shown = try remoteGit("show", "main:\(path).json", uid: uid)
        guard shown.status == 0 else { return nil }
        return try? JSONParser().parse(shown.stdout)
    }

    /// The files of the remote's `main` below `folder`.
    package func remoteFiles(under folder: String, uid: String = "u1") throws -> [String] {
        try remoteGit("ls-tree", "-r", "--name-only", "main", folder, uid: uid).stdout
            .split(separator: "\n").map(String.init)
    }

    /// Every device on the remote's commit and tree, its working tree clean, nothing left to
    /// push, every document valid.
    package func expectConverged(_ devices: [String], uid: String = "u1", sourceLocation: SourceLocation = #_sourceLocation) throws {
        let main = try remoteMain(uid)
        let tree = try remoteGit("rev-parse", "main^{tree}", uid: uid).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!main.isEmpty, "the remote has a main", sourceLocation: sourceLocation)
        for device in devices {
            #expect(
                try git(device, "rev-parse", "HEAD", user: uid) == main, "\(device) is on the remote's commit",
                sourceLocation: sourceLocation)
            #expect(
                try git(device, "rev-parse", "HEAD^{tree}", user: uid) == tree, "\(device) has the remote's tree",
                sourceLocation: sourceLocation)
            #expect(
                try git(device, "status", "--porcelain", user: uid) == "", "\(device): git status is clean", sourceLocation: sourceLocation)
            let status = try on(device, "status", user: uid)
            #expect(
                status.stdout.contains("every checkpoint pushed") && status.stdout.contains("Nothing to checkpoint."),
                "\(device): \(status.stdout)", sourceLocation: sourceLocation)
            let validated = try on(device, "validate", user: uid)
            #expect(validated.status == 0, "\(device): \(validated.stdout)\(validated.stderr)", sourceLocation: sourceLocation)
        }
    }

    /// Starts the tool without waiting for it (to kill it).
    package func launch(_ device: String, _ arguments: [String]) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: CLI.executable)
        process.arguments = ["--home", home(device), "--user", "u1"] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["CAIRN_HOME"] = nil
        environment["CAIRN_LOG"] = nil
        environment["CAIRN_SYNC_RETRY"] = "none"
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }
}
