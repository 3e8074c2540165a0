import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A server on 127.0.0.1 that answers every HTTP request with the same status line and
/// headers, without a body, and closes the connection: what libgit2's HTTP transport meets
/// when a server refuses it (a 404, a 401 asking for a password).
final class CannedHTTPServer: Sendable {
    /// Why the server could not start.
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    let port: Int
    private let listener: Int32

    /// Listens, and answers on a thread of its own until the server is released.
    init(status: String, headers: [String] = []) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 8) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard listener >= 0, listening else {
            let reason = String(cString: strerror(errno))
            close(listener)
            throw SetupError(description: "CannedHTTPServer: \(reason)")
        }
        self.listener = listener
        port = Int(in_port_t(bigEndian: address.sin_port))
        let response = Array(
            ("HTTP/1.1 \(status)\r\n" + headers.map { $0 + "\r\n" }.joined()
                + "Content-Length: 0\r\nConnection: close\r\n\r\n").utf8)
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else {
                    // The thread closes the listener, once it no longer uses it: closed by
                    // the server's release, its number could go to another test's listener
                    // while this thread still accepts on it, and answer for that one.
                    close(listener)
                    return
                }
                Self.readRequest(client)
                _ = response.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(client)
            }
        }
    }

    deinit {
        // Wakes the thread's accept, which then fails, closes the listener and ends.
        shutdown(listener, Int32(SHUT_RDWR))
    }

    /// Reads a request up to the blank line after its headers (libgit2's requests for the
    /// references have no body).
    private static func readRequest(_ client: Int32) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !received.suffix(4).elementsEqual(Array("\r\n\r\n".utf8)) {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return }
            received += buffer[..<count]
        }
    }
}
