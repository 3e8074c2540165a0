import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What the tests' loopback servers share: a free port of 127.0.0.1, whether something
/// listens there, and stopping a child process by its PID.
public enum Loopback {
    /// Why a port could not be found.
    public struct PortError: Error, CustomStringConvertible {
        public var description: String
    }

    /// A port of 127.0.0.1 that was free a moment ago (bound to port 0, then released).
    public static func freePort() throws -> Int {
        let descriptor = try newSocket()
        defer { close(descriptor) }
        var address = sockaddr_in.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        if !bound {
            throw PortError(description: "no free port on 127.0.0.1: \(String(cString: strerror(errno)))")
        }
        return Int(in_port_t(bigEndian: address.sin_port))
    }

    /// Whether a TCP connection to 127.0.0.1:`port` is accepted.
    public static func canConnect(port: Int) -> Bool {
        guard let descriptor = try? newSocket() else {
            return false
        }
        defer { close(descriptor) }
        var address = sockaddr_in.loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Stops a child and what it started: SIGTERM, up to 5 s, then SIGKILL; waits for it either way.
    public static func terminate(_ process: ChildProcess) {
        guard process.isRunning else {
            return
        }
        process.terminate()
        let deadline = Date() + 5
        while process.isRunning, Date() < deadline {
            usleep(20_000)
        }
        process.send(SIGKILL, toGroup: true)
        process.waitUntilExit()
    }

    /// Sends `request` as it is to 127.0.0.1:`port` and returns what came back until the
    /// server closed the connection, or `timeout` seconds passed: raw HTTP that no client
    /// library would send.
    public static func exchange(port: Int, _ request: [UInt8], timeout: Int = 10) throws -> [UInt8] {
        let descriptor = try newSocket()
        defer { close(descriptor) }
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in.loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw PortError(description: "cannot connect to 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // A server may answer and close before it has read everything (a refused header).
            guard count > 0 else { break }
            sent += count
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            answer += buffer[0..<count]
        }
        return answer
    }

    private static func newSocket() throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if descriptor < 0 {
            throw PortError(description: "socket() failed: \(String(cString: strerror(errno)))")
        }
        return descriptor
    }
}
