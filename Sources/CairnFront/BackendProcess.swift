import CairnCore
import CairnSystem
import NIOCore
import NIOPosix
import Synchronization

/// One run of a program the front starts for a request. Its stdout is a pipe the server's
/// event loops read, so no thread waits on it. Its stdin is written before it starts when the
/// request's body fits in a pipe's smallest buffer (as every request but a push's pack
/// does), else by the event loops too; its stderr goes to an unnamed file, read when it ends,
/// so it never waits on a full pipe and the server watches one descriptor a run, not three.
/// Only its end is waited for on a thread (NIO's thread pool).
struct BackendProcess: Sendable {
    typealias Pipe = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    let pid: Int32
    private let input: (any Channel)?
    private let pendingInput: [UInt8]
    private let output: Pipe
    /// The unnamed file of its stderr, which ``readError(limit:)`` reads and closes.
    private let error: Int32

    /// A body this long or shorter is written before the program starts: a pipe holds at
    /// least a page, whatever the system's limits on pipes.
    static let inputWrittenAhead = 4096

    /// Why the program could not be started.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `path` with `environment` and `input` on its stdin; its stderr's file is in
    /// memory, or on a kernel without files in memory, made in `scratch`.
    static func start(_ path: String, environment: [String], input: [UInt8], scratch: String) async throws -> BackendProcess {
        var opened: [Int32] = []
        defer { for descriptor in opened { _ = Syscalls.close(descriptor) } }
        func pipe() throws -> (read: Int32, write: Int32) {
            let ends = try Syscalls.pipe().mapError { StartFailure(description: "no pipe for \(path): \($0)") }.get()
            opened += [ends.read, ends.write]
            return ends
        }
        let stdin = try pipe(), stdout = try pipe()
        let stderr = try Syscalls.unnamedFile(in: scratch).mapError {
            StartFailure(description: "no file for \(path)'s stderr in \(scratch): \($0)")
        }.get()
        opened.append(stderr)
        let writtenAhead = input.count <= inputWrittenAhead
        if writtenAhead {
            if !input.isEmpty {
                guard case .success = input.withUnsafeBytes({ Syscalls.writeAll(stdin.write, from: $0) }) else {
                    throw StartFailure(description: "cannot write the request's body to \(path)'s stdin")
                }
            }
            _ = Syscalls.close(stdin.write)
            opened.removeAll { $0 == stdin.write }
        }
        let pid: Int32
        switch Syscalls.spawn(
            path, arguments: [path], environment: environment,
            input: stdin.read, output: stdout.write, error: stderr)
        {
        case .success(let started): pid = started
        case .failure(let error): throw StartFailure(description: "cannot start \(path): \(error)")
        }
        // The child's ends are the child's now; each of ours, once a channel holds it, is the
        // channel's to close.
        for descriptor in [stdin.read, stdout.write] { _ = Syscalls.close(descriptor) }
        opened.removeAll { $0 == stdin.read || $0 == stdout.write }
        var inputPipe: (any Channel)?
        do {
            if !writtenAhead {
                inputPipe = try await NIOPipeBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .takingOwnershipOfDescriptor(output: stdin.write).get()
                opened.removeAll { $0 == stdin.write }
            }
            let output = try await channel(reading: stdout.read)
            opened.removeAll { $0 == stdout.read || $0 == stderr }
            return BackendProcess(pid: pid, input: inputPipe, pendingInput: writtenAhead ? [] : input, output: output, error: stderr)
        } catch {
            // Without its pipes the run cannot be served: it is ended and reaped, not left.
            try? await inputPipe?.close().get()
            Syscalls.kill(pid)
            _ = try? await NIOThreadPool.singleton.runIfActive { Syscalls.waitForExit(of: pid) }
            throw StartFailure(description: "cannot read \(path)'s pipes: \(error)")
        }
    }

    private static func channel(reading descriptor: Int32) async throws -> Pipe {
        try await NIOPipeBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .takingOwnershipOfDescriptor(input: descriptor) { channel in
                channel.eventLoop.makeCompletedFuture { try Pipe(wrappingChannelSynchronously: channel) }
            }
    }

    /// Writes what was not written ahead to the program's stdin, waits until the pipe took it
    /// all, and closes it. A program that ends without reading it all is not an error here:
    /// its exit says how it went.
    func writeInput() async {
        guard let input else { return }
        try? await input.writeAndFlush(ByteBuffer(bytes: pendingInput)).get()
        try? await input.close().get()
    }

    /// Calls `each` with what the program writes to stdout, piece by piece, until it closes it.
    func readOutput(_ each: (ByteBuffer) async throws -> Void) async throws {
        try await output.executeThenClose { inbound, _ in
            for try await chunk in inbound { try await each(chunk) }
        }
    }

    /// Waits for the program to end, and reaps it: how it ended, or nil when that cannot be
    /// known (the thread pool has stopped). Called once the server reads no more of its stdout
    /// (the program closed it, or the client went away); a program still running `limit`
    /// later is ended (SIGKILL). git's backend, given less of a body than it was told, reads
    /// an empty stdin forever, even once its answer is written.
    func exit(within limit: TimeAmount) async -> Syscalls.Exit? {
        let pid = self.pid
        let running = Running()
        let overdue = MultiThreadedEventLoopGroup.singleton.next().scheduleTask(in: limit) {
            running.state.withLock { running in if running { Syscalls.kill(pid) } }
        }
        defer { overdue.cancel() }
        return try? await NIOThreadPool.singleton.runIfActive {
            // Ended but not reaped, the program keeps its pid until the flag is down.
            _ = Syscalls.waitForEnd(of: pid)
            running.state.withLock { $0 = false }
            return try Syscalls.waitForExit(of: pid).get()
        }
    }

    /// Whether the program may still be signalled: true until it has ended, before it is reaped.
    private final class Running: Sendable {
        let state = Mutex(true)
    }

    /// The first `limit` bytes the program wrote to stderr; call once, after ``exit(within:)``.
    func readError(limit: Int) -> String {
        defer { _ = Syscalls.close(error) }
        var bytes = [UInt8](repeating: 0, count: limit)
        let count = bytes.withUnsafeMutableBytes { (try? Syscalls.read(error, into: $0, at: 0).get()) ?? 0 }
        return String(decoding: bytes[..<count], as: UTF8.self)
    }
}
