#if canImport(Glibc)
import Glibc
#endif

/// A port of 127.0.0.1 where nothing answers. A socket listens with a backlog of 0 and
/// never accepts. With `connecting` false, one connection of its own fills the queue, so
/// Linux drops the SYN of every later connection and `connect` waits, as with a host that
/// drops packets. With `connecting` true, the next connection completes (the kernel
/// answers the handshake) and then waits forever for a byte, as with a hung server.
public final class UnansweringListener: Sendable {
    /// Why the listener could not be set up.
    public struct SetupError: Error, CustomStringConvertible {
        public var description: String
    }

    public let port: Int
    private let listener: Int32
    private let filler: Int32

    public init(connecting: Bool = false) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 0) == 0 && getsockname(listener, $0, &length) == 0
                    && (connecting || connect(filler, $0, length) == 0)
            }
        }
        if listener < 0 || filler < 0 || !listening {
            let reason = String(cString: strerror(errno))
            close(listener)
            close(filler)
            throw SetupError(description: "UnansweringListener: \(reason)")
        }
        self.listener = listener
        self.filler = filler
        port = Int(in_port_t(bigEndian: address.sin_port))
    }

    deinit {
        close(filler)
        close(listener)
    }
}
