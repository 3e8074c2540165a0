import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real Git LFS server for tests: giftless (from PyPI, in the virtual environment
/// `scripts/git-clients.sh` makes) run by gunicorn on a Unix socket in a folder only this user
/// may enter, so that it is reached only through the web server put in front of it
/// (``LFSGitServer``), which checks the passwords. It serves the batch API and basic transfers
/// at `/git/<uid>.git/info/lfs/…` and keeps each object as the file `<storage>/git/<uid>/<oid>`.
/// Each user may reach only the objects of their own repository: the authenticator in
/// `Tests/LFSServer/owner_auth.py` gives the user the web server let through permissions on
/// that repository alone.
public final class GiftlessServer: Sendable {
    /// The Unix socket it serves on.
    public let socket: String
    /// The PID of gunicorn's master process (SIGTERM ends it and its worker).
    public let pid: Int32
    /// The folder the objects are kept in.
    public let storage: String
    private let process: ChildProcess
    private let folder: TemporaryFolder
    private let stopping = NSLock()

    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("scripts/git-clients.sh").path

    /// Makes the virtual environment if it is missing (at most 10 minutes: the first time
    /// installs from PyPI), then starts giftless keeping objects in `storage` (made if missing)
    /// and waits (at most 10 s) until it accepts connections.
    public init(storage: String) throws {
        let prepared = try runBounded("/bin/bash", [Self.script, "prepare", "giftless"], limit: 600)
        guard prepared.status == 0 else {
            throw GitServerStartError(
                description: "GiftlessServer: giftless could not be made (exit \(prepared.status)): \(prepared.stderr)")
        }
        try FileManager.default.createDirectory(atPath: storage, withIntermediateDirectories: true)
        let folder = TemporaryFolder("cairn-giftless")
        let paths = Paths(folder: folder.path)
        guard paths.socket.utf8.count < 100 else {
            throw GitServerStartError(description: "GiftlessServer: the socket path \(paths.socket) is too long for a Unix socket")
        }
        try Self.configuration(storage: storage).write(toFile: paths.configuration, atomically: false, encoding: .utf8)
        let process = try Loopback.start(
            "/bin/bash", [Self.script, "run", "giftless", paths.socket, paths.configuration],
            console: paths.console)
        let deadline = Date() + 10
        // gunicorn logs "Listening at" once it has bound the socket, and "Booting worker" once
        // the worker that answers is starting; the worker loads giftless before it accepts.
        while !(paths.log.contains("Booting worker") && Loopback.canConnect(socket: paths.socket)) {
            if !process.isRunning {
                process.waitUntilExit()
                throw GitServerStartError(
                    description: "GiftlessServer: gunicorn exited (status \(process.terminationStatus)):\n\(paths.log)")
            }
            if Date() >= deadline {
                Loopback.terminate(process)
                throw GitServerStartError(
                    description: "GiftlessServer: gunicorn did not accept connections on \(paths.socket) within 10 s:\n\(paths.log)")
            }
            usleep(20_000)
        }
        self.socket = paths.socket
        self.pid = process.processIdentifier
        self.storage = storage
        self.process = process
        self.folder = folder
    }

    deinit {
        stop()
    }

    /// Stops gunicorn by its PID (SIGTERM, wait, then SIGKILL if still alive after 5 s).
    /// Idempotent; also called from deinit.
    public func stop() {
        stopping.lock()
        defer { stopping.unlock() }
        Loopback.terminate(process)
    }

    /// What gunicorn and giftless printed (each request that failed with its traceback).
    public var errorLog: String {
        Paths(folder: folder.path).log
    }

    /// Where the server keeps the object `oid` (its SHA-256, in hex) of the repository
    /// `<uid>.git`.
    public func objectPath(uid: String, oid: String) -> String {
        "\(storage)/git/\(uid)/\(oid)"
    }

    /// giftless's configuration: basic transfers streamed to and from local storage, users
    /// known by the authenticator that trusts the web server in front, no pre-authorized
    /// actions (their bearer tokens would replace the basic auth the web server checks on the
    /// transfers), and the endpoints git-lfs finds by itself (`<remote>/info/lfs`) only.
    static func configuration(storage: String) -> String {
        """
        AUTH_PROVIDERS:
          - owner_auth:owner
        PRE_AUTHORIZED_ACTION_PROVIDER: null
        LEGACY_ENDPOINTS: false
        TRANSFER_ADAPTERS:
          basic:
            factory: giftless.transfer.basic_streaming:factory
            options:
              storage_class: giftless.storage.local_storage:LocalStorage
              storage_options:
                path: "\(storage)"

        """
    }

    /// Where the server's files live in its folder.
    private struct Paths {
        var folder: String
        var configuration: String { folder + "/giftless.yaml" }
        var socket: String { folder + "/giftless.socket" }
        var console: String { folder + "/console.log" }

        var log: String {
            (try? String(contentsOfFile: console, encoding: .utf8)) ?? ""
        }
    }
}
