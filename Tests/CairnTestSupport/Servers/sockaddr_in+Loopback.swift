#if canImport(Glibc)
import Glibc
#endif

extension sockaddr_in {
    /// The IPv4 address 127.0.0.1 at `port` (0: any free port), for the tests' servers,
    /// which listen on this machine only.
    public static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port).bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        return address
    }
}
