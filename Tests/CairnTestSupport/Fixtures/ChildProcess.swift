import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program the tests run, spawned with `posix_spawn` and reaped by its own PID: the part
/// of Foundation's `Process` the tests use, under the same names, without its one shared
/// monitoring thread.
///
/// That thread learns of a child's end when a socket the child inherits closes, then waits
/// for that child in a blocking `waitpid`. A long-lived child that closes the descriptors it
/// inherits (several servers do) holds the thread until it ends, and meanwhile no other
/// `Process` of the test run is seen to end: unrelated tests stalled past their time limits.
/// Here each caller polls its own child, so one child never delays another.
///
/// The child gets an empty signal mask and default handlers (the test runner blocks SIGTERM
/// and SIGCHLD and ignores SIGPIPE, and a child would inherit that), its own process group,
/// stdin, stdout and stderr as set (a `FileHandle`, a `Pipe`, or nil for /dev/null; unset:
/// the test's own), and no other descriptor of the test run.
public final class ChildProcess: @unchecked Sendable {
    public var executableURL: URL?
    public var arguments: [String] = []
    /// The environment; nil: the test's own.
    public var environment: [String: String]?
    public var currentDirectoryURL: URL?
    public var standardInput: Any? = FileHandle.standardInput
    public var standardOutput: Any? = FileHandle.standardOutput
    public var standardError: Any? = FileHandle.standardError

    /// Why the program could not start.
    public struct SpawnError: Error, CustomStringConvertible {
        public var description: String
    }

    private let lock = NSLock()
    private var pid: pid_t = 0
    private var status: Int32?
    private var usage = rusage()

    public init() {}

    /// The PID; 0 before ``run()``.
    public var processIdentifier: Int32 {
        lock.withLock { pid }
    }

    /// Starts the program.
    public func run() throws {
        guard let executable = executableURL?.path else {
            throw SpawnError(description: "ChildProcess: no executable set")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let devNull = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { if devNull >= 0 { close(devNull) } }
        var parentCloses: [FileHandle] = []
        for (target, handle, reading) in [(Int32(0), standardInput, true), (1, standardOutput, false), (2, standardError, false)] {
            let source: Int32
            switch handle {
            case let pipe as Pipe:
                let end = reading ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                source = end.fileDescriptor
                parentCloses.append(end)
            case let file as FileHandle where file.fileDescriptor >= 0:
                source = file.fileDescriptor
            default:
                // nil, or FileHandle.nullDevice (which has no descriptor of its own).
                source = devNull
            }
            // Also when source is target: the duplicate clears close-on-exec.
            let failed = posix_spawn_file_actions_adddup2(&actions, source, target)
            guard failed == 0 else {
                throw SpawnError(
                    description: "ChildProcess: cannot give descriptor \(source) to \(target): \(String(cString: strerror(failed)))")
            }
        }
        try Self.closeFrom(3, in: &actions)
        if let directory = currentDirectoryURL?.path {
            try Self.changeDirectory(directory, in: &actions)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = ([executable] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") }
        defer { variables.forEach { free($0) } }
        var child = pid_t()
        let failed = posix_spawn(&child, executable, &actions, &attributes, argv + [nil], variables + [nil])
        guard failed == 0 else {
            throw SpawnError(description: "ChildProcess: cannot run \(executable): \(String(cString: strerror(failed)))")
        }
        // The child holds its ends of the pipes now; the parent's copies would keep a reader
        // from ever seeing the end of the output.
        for end in parentCloses { try? end.close() }
        lock.withLock { pid = child }
    }

    /// Whether the program still runs (reaping it once it has ended); false before ``run()``.
    public var isRunning: Bool {
        lock.withLock { pid > 0 && reap() == nil }
    }

    /// Waits for the program to end.
    public func waitUntilExit() {
        var pause: UInt32 = 100
        while isRunning {
            usleep(pause)
            pause = min(pause * 2, 10_000)
        }
    }

    /// Sends SIGTERM to the program and every process it started (its process group), so a
    /// child it left running (a server's worker, `flock`'s command) does not outlive it.
    public func terminate() {
        send(SIGTERM, toGroup: true)
    }

    /// Sends `signal` to the program, or to its whole process group, unless the program has
    /// already been reaped: its PID, and so its group's, cannot have been reused meanwhile.
    public func send(_ signal: Int32, toGroup: Bool = false) {
        lock.withLock {
            if reap() == nil { kill(toGroup ? -pid : pid, signal) }
        }
    }

    /// The exit status, or the signal that ended the program.
    public var terminationStatus: Int32 {
        lock.withLock {
            guard let status else { return 0 }
            return Self.exited(status) ? (status >> 8) & 0xff : status & 0x7f
        }
    }

    /// Whether the program exited or was ended by a signal.
    public var terminationReason: Process.TerminationReason {
        lock.withLock { status.map(Self.exited) == false ? .uncaughtSignal : .exit }
    }

    /// Once the program has ended: the CPU time, in milliseconds, it spent and every process
    /// it waited for spent (Linux's `wait4` counts them together); 0 before.
    public var cpuMilliseconds: Double {
        lock.withLock {
            guard status != nil else { return 0 }
            let seconds = Double(usage.ru_utime.tv_sec) + Double(usage.ru_stime.tv_sec)
            return seconds * 1_000 + (Double(usage.ru_utime.tv_usec) + Double(usage.ru_stime.tv_usec)) / 1_000
        }
    }

    private static func exited(_ status: Int32) -> Bool {
        status & 0x7f == 0
    }

    /// The wait status once the child has ended; called with the lock held.
    private func reap() -> Int32? {
        if let status { return status }
        guard pid > 0 else { return nil }
        var raw: Int32 = 0
        var reaped = wait4(pid, &raw, WNOHANG, &usage)
        while reaped < 0, errno == EINTR {
            reaped = wait4(pid, &raw, WNOHANG, &usage)
        }
        guard reaped != 0 else { return nil }
        // A child that cannot be waited for (reaped elsewhere) counts as failed: exit 255.
        status = reaped == pid ? raw : 255 << 8
        return status
    }

    /// glibc's file actions that Swift's Glibc module leaves out (they need _GNU_SOURCE),
    /// looked up by name.
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    private static func symbol(_ name: String) throws -> UnsafeMutableRawPointer {
        guard let found = dlsym(nil, name) else {
            throw SpawnError(description: "ChildProcess: the C library lacks \(name) (glibc 2.34 or later has it)")
        }
        return found
    }

    private static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) throws {
        let function = unsafeBitCast(try symbol("posix_spawn_file_actions_addclosefrom_np"), to: CloseFrom.self)
        _ = function(&actions, lowest)
    }

    private static func changeDirectory(_ path: String, in actions: inout posix_spawn_file_actions_t) throws {
        let function = unsafeBitCast(try symbol("posix_spawn_file_actions_addchdir_np"), to: ChangeDirectory.self)
        _ = function(&actions, path)
    }
}
