#if canImport(Glibc)
import Glibc
#endif

/// The socket calls the tests' proxies share (``FaultProxy``, ``LinkProxy``): a listener on
/// 127.0.0.1, a connection to a loopback port, and a send of every byte that gives up when
/// the proxy stops.
enum ProxySockets {
    /// A socket listening on an ephemeral port of 127.0.0.1, and the port; `name` is the
    /// proxy's, for the message.
    static func listen(name: String) throws(ProxyStartError) -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw ProxyStartError(description: "\(name): socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && Glibc.listen(descriptor, 64) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard listening else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw ProxyStartError(description: "\(name): cannot listen on 127.0.0.1: \(reason)")
        }
        return (descriptor, Int(in_port_t(bigEndian: address.sin_port)))
    }

    /// A connected socket to 127.0.0.1:`port`, nil when the connection is refused.
    static func connect(toLoopbackPort port: Int) -> Int32? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_in.loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        if !connected {
            close(descriptor)
            return nil
        }
        return descriptor
    }

    /// Sends every byte, waiting at most `pollMilliseconds` at a time for room; false when
    /// the peer is gone, or when `stopping` says so while waiting.
    static func sendAll(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>, pollMilliseconds: Int32, stopping: () -> Bool) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            if poll(&entry, 1, pollMilliseconds) <= 0 {
                if stopping() { return false }
                continue
            }
            let sent = rest.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if sent < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return false
            }
            rest = rest.dropFirst(sent)
        }
        return true
    }
}

/// Why a proxy could not start.
public struct ProxyStartError: Error, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}
