import CGit2
// `timeval` is declared by <sys/time.h>, which libgit2's headers bring in too: the compiler
// may credit either module with it, so both are imported.
import CairnSystem

#if canImport(Glibc)
import Glibc
#endif

/// A client of an ssh-agent on its Unix socket (the agent protocol of OpenSSH's
/// `PROTOCOL.agent`): the keys it holds, in its order, and signatures made with one of them.
///
/// libgit2 1.5 can only hand libssh2 the agent as a whole, which offers every key it holds in
/// turn; Cairn asks the agent itself, so that it offers the keys ssh would offer, in ssh's
/// order, and signs with the one the server accepts.
public struct SSHAgent: Sendable, Hashable {
    /// The agent's socket (`SSH_AUTH_SOCK`).
    public let socket: String
    /// How long the agent may take to answer, in seconds.
    public var timeout: Int = 10

    public init(socket: String) {
        self.socket = socket
    }

    /// Message numbers of the protocol.
    private enum Message {
        static let failure: UInt8 = 5
        static let requestIdentities: UInt8 = 11
        static let identitiesAnswer: UInt8 = 12
        static let signRequest: UInt8 = 13
        static let signResponse: UInt8 = 14
    }

    /// The keys the agent holds, in the order it lists them.
    public func keys() throws(SSHAgentError) -> [SSHPublicKey] {
        let answer = try transact([Message.requestIdentities])
        var wire = SSHWire(answer)
        guard wire.byte() == Message.identitiesAnswer, let count = wire.uint32() else {
            throw SSHAgentError("the ssh-agent at \(socket) did not list its keys")
        }
        var keys: [SSHPublicKey] = []
        for _ in 0..<count {
            guard let blob = wire.string(), let comment = wire.string() else {
                throw SSHAgentError("the ssh-agent at \(socket) sent a truncated list of keys")
            }
            keys.append(SSHPublicKey(blob: Array(blob), comment: String(decoding: comment, as: UTF8.self)))
        }
        return keys
    }

    /// The agent's signature of `data` with `key` (flags 0: for an RSA key, the `ssh-rsa`
    /// SHA-1 signature libssh2 1.10 asks for), without the algorithm name that precedes it
    /// on the wire — the form libssh2's signing callbacks return.
    public func sign(_ data: [UInt8], with key: SSHPublicKey) throws(SSHAgentError) -> [UInt8] {
        let request = [Message.signRequest] + SSHWire.string(key.blob) + SSHWire.string(data) + SSHWire.uint32(0)
        let answer = try transact(request)
        var wire = SSHWire(answer)
        guard let kind = wire.byte() else { throw SSHAgentError("the ssh-agent at \(socket) sent an empty answer") }
        guard kind == Message.signResponse else {
            throw SSHAgentError(
                "the ssh-agent at \(socket) refused to sign with \(key)" + (kind == Message.failure ? " (does it still hold the key?)" : "")
            )
        }
        guard let signature = wire.string() else { throw SSHAgentError("the ssh-agent at \(socket) sent a truncated signature") }
        var inner = SSHWire(signature)
        guard inner.string() != nil, let bytes = inner.string() else {
            throw SSHAgentError("the ssh-agent at \(socket) sent a malformed signature")
        }
        return Array(bytes)
    }

    /// Sends one request and returns the agent's answer (both without their length).
    private func transact(_ request: [UInt8]) throws(SSHAgentError) -> [UInt8] {
        let fd = try connect()
        defer { close(fd) }
        try send(fd, SSHWire.uint32(UInt32(request.count)) + request)
        var length = SSHWire(try receive(fd, count: 4))
        guard let count = length.uint32(), count <= 256 * 1024 else {
            throw SSHAgentError("the ssh-agent at \(socket) sent an answer too long to be one")
        }
        return try receive(fd, count: Int(count))
    }

    private func connect() throws(SSHAgentError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let path = Array(socket.utf8)
        guard !path.isEmpty, path.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SSHAgentError("the ssh-agent socket path \(socket) is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path)
            buffer[path.count] = 0
        }
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SSHAgentError("cannot make a socket for the ssh-agent: \(String(cString: strerror(errno)))") }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw SSHAgentError("cannot reach the ssh-agent at \(socket): \(reason)")
        }
        return fd
    }

    private func send(_ fd: Int32, _ bytes: [UInt8]) throws(SSHAgentError) {
        var sent = 0
        while sent < bytes.count {
            let result = Syscalls.retryingOnInterrupt {
                bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            switch result {
            case .success(0): throw SSHAgentError("cannot write to the ssh-agent at \(socket): it takes nothing")
            case .success(let count): sent += count
            case .failure(let error): throw SSHAgentError("cannot write to the ssh-agent at \(socket): \(error)")
            }
        }
    }

    private func receive(_ fd: Int32, count: Int) throws(SSHAgentError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var received = 0
        while received < count {
            let result = Syscalls.retryingOnInterrupt {
                bytes[received...].withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
            }
            let read: Int
            switch result {
            case .success(0): throw SSHAgentError("the ssh-agent at \(socket) closed the connection")
            case .success(let count): read = count
            case .failure(let error): throw SSHAgentError("cannot read from the ssh-agent at \(socket): \(error)")
            }
            received += read
        }
        return bytes
    }
}
