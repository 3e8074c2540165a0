import CairnCore
import NIOCore
import NIOPosix

/// One run of a program the front starts for a request: spawned with its stdin, stdout and
/// stderr on pipes whose other ends the server's event loops write and read, so no thread
/// waits on a pipe. Only its end is waited for on a thread (NIO's thread pool), since Linux
/// has no descriptor to watch for it that every kernel the server runs on offers.
struct BackendProcess: Sendable {
    typealias Pipe = NIOAsyncChannel<ByteBuffer, ByteBuffer>

    let pid: Int32
    private let input: Pipe
    private let output: Pipe
    private let error: Pipe

    /// Why the program could not be started.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `path` with `environment`.
    static func start(_ path: String, environment: [String]) async throws -> BackendProcess {
        var opened: [Int32] = []
        defer { for descriptor in opened { _ = Syscalls.close(descriptor) } }
        func pipe() throws -> (read: Int32, write: Int32) {
            switch Syscalls.pipe() {
            case .success(let ends):
                opened += [ends.read, ends.write]
                return ends
            case .failure(let error):
                throw StartFailure(description: "no pipe for \(path): \(error)")
            }
        }
        let stdin = try pipe(), stdout = try pipe(), stderr = try pipe()
        let pid: Int32
        switch Syscalls.spawn(path, arguments: [path], environment: environment,
                              input: stdin.read, output: stdout.write, error: stderr.write) {
        case .success(let started): pid = started
        case .failure(let error): throw StartFailure(description: "cannot start \(path): \(error)")
        }
        // The child's ends are the child's now; each of ours, once a channel holds it, is the
        // channel's to close.
        for descriptor in [stdin.read, stdout.write, stderr.write] { _ = Syscalls.close(descriptor) }
        opened = [stdin.write, stdout.read, stderr.read]
        do {
            let input = try await channel(writing: stdin.write)
            opened.removeAll { $0 == stdin.write }
            let output = try await channel(reading: stdout.read)
            opened.removeAll { $0 == stdout.read }
            let error = try await channel(reading: stderr.read)
            opened.removeAll { $0 == stderr.read }
            return BackendProcess(pid: pid, input: input, output: output, error: error)
        } catch {
            // Without its pipes the run cannot be served: it is ended and reaped, not left.
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

    private static func channel(writing descriptor: Int32) async throws -> Pipe {
        try await NIOPipeBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .takingOwnershipOfDescriptor(output: descriptor) { channel in
                channel.eventLoop.makeCompletedFuture { try Pipe(wrappingChannelSynchronously: channel) }
            }
    }

    /// Writes `bytes` to the program's stdin and closes it. A program that ends without
    /// reading it all is not an error here: its exit says how it went.
    func write(_ bytes: [UInt8]) async {
        try? await input.executeThenClose { _, outbound in
            if !bytes.isEmpty { try await outbound.write(ByteBuffer(bytes: bytes)) }
        }
    }

    /// Calls `each` with what the program writes to stdout, piece by piece, until it closes it.
    func readOutput(_ each: (ByteBuffer) async throws -> Void) async throws {
        try await output.executeThenClose { inbound, _ in
            for try await chunk in inbound { try await each(chunk) }
        }
    }

    /// What the program writes to stderr, its first `limit` bytes; the rest is read and
    /// dropped, so the program never waits on a full pipe.
    func readError(limit: Int) async -> String {
        var bytes: [UInt8] = []
        try? await error.executeThenClose { inbound, _ in
            for try await chunk in inbound where bytes.count < limit {
                bytes += chunk.readableBytesView.prefix(limit - bytes.count)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Waits for the program to end, and reaps it: how it ended, or nil when that cannot be
    /// known (the thread pool has stopped).
    func exit() async -> Syscalls.Exit? {
        let pid = self.pid
        return try? await NIOThreadPool.singleton.runIfActive { try Syscalls.waitForExit(of: pid).get() }
    }
}
