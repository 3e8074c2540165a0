import NIOCore
import NIOPosix

/// HAProxy's runtime API (its `stats socket … level admin`, a TCP address or a Unix socket):
/// one command a connection, its answer read to the end. The maps it routes by change at once,
/// with no reload; the map files on disk are written beside, so a reload keeps the changes.
public struct HAProxyRuntime: Sendable {
    /// `HOST:PORT`, or the path of a Unix socket.
    public let address: String

    public init(address: String) {
        self.address = address
    }

    /// Sends `command`; its answer. HAProxy answers a refused command with text, not a status:
    /// the caller reads it.
    public func send(_ command: String) async throws(BackupError) -> String {
        do {
            let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
            if address.hasPrefix("/") {
                channel = try await bootstrap.connect(unixDomainSocketPath: address) { channel in
                    channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel(wrappingChannelSynchronously: channel) }
                }
            } else {
                guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]) else {
                    throw BackupError("\(address) is not HAProxy's runtime address: give HOST:PORT or a socket's path")
                }
                channel = try await bootstrap.connect(host: String(address[..<colon]), port: port) { channel in
                    channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel(wrappingChannelSynchronously: channel) }
                }
            }
            return try await channel.executeThenClose { inbound, outbound in
                try await outbound.write(ByteBuffer(string: command + "\n"))
                var answer = ""
                for try await chunk in inbound { answer += String(buffer: chunk) }
                return answer
            }
        } catch let error as BackupError {
            throw error
        } catch {
            throw BackupError("HAProxy's runtime API at \(address) cannot be reached: \(error)")
        }
    }

    /// Sets `key` to `value` in the map `file` (added when missing); refused in one line.
    public func setMap(_ file: String, _ key: String, _ value: String) async throws(BackupError) {
        let answer = try await send("set map \(file) \(key) \(value)")
        if answer.trimmingWhitespace().isEmpty { return }
        let added = try await send("add map \(file) \(key) \(value)")
        guard added.trimmingWhitespace().isEmpty else {
            throw BackupError("HAProxy refused to map \(key) to \(value) in \(file): \(added.trimmingWhitespace())")
        }
    }

    /// Removes `key` from the map `file` (nothing when it is not there).
    public func deleteFromMap(_ file: String, _ key: String) async throws(BackupError) {
        _ = try await send("del map \(file) \(key)")
    }
}
