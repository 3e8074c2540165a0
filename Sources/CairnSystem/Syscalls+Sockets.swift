#if canImport(Glibc)
import Glibc
#endif

extension Syscalls {
    /// Why no connection was made.
    package enum ConnectFailure: Error, Equatable {
        /// The name did not resolve: the resolver's words (`gai_strerror`).
        case unresolved(String)
        /// The name resolved to no address.
        case noAddress
        /// The last address tried refused, or failed with this error.
        case failed(Errno)
        /// The last address tried did not answer in time.
        case unanswered
    }

    /// What a descriptor is waited for.
    package enum Readiness {
        /// Something to read, or the peer's end, or an error.
        case readable
        /// Room to write, or an error.
        case writable

        var events: Int16 {
            switch self {
            case .readable: Int16(POLLIN)
            case .writable: Int16(POLLOUT)
            }
        }
    }

    /// A TCP connection to `host` and `port`: a socket that does not block and closes on
    /// exec, with Nagle's algorithm off (``sendAtOnce(_:)``). Each address the name resolves
    /// to is tried in turn, each for `seconds` at most (nil: as long as the system waits).
    package static func connect(host: String, port: String, seconds: Double?) -> Result<Int32, ConnectFailure> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(host, port, &hints, &found)
        guard resolved == 0 else { return .failure(.unresolved(String(cString: gai_strerror(resolved)))) }
        defer { freeaddrinfo(found) }
        var failure = ConnectFailure.noAddress
        var address = found
        while let candidate = address?.pointee {
            address = candidate.ai_next
            let descriptor = socket(
                candidate.ai_family,
                candidate.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
                candidate.ai_protocol)
            guard descriptor >= 0 else {
                failure = .failed(.current)
                continue
            }
            // A connection that does not block goes on after the call returns; one a signal
            // interrupted goes on as well, so either is waited for.
            if Glibc.connect(descriptor, candidate.ai_addr, candidate.ai_addrlen) == 0 {
                sendAtOnce(descriptor)
                return .success(descriptor)
            }
            let error = Errno.current
            guard error == .inProgress || error == .interrupted else {
                failure = .failed(error)
                Glibc.close(descriptor)
                continue
            }
            guard wait(for: .writable, on: descriptor, seconds: seconds) else {
                failure = .unanswered
                Glibc.close(descriptor)
                continue
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) != 0 { code = errno }
            if code == 0 {
                sendAtOnce(descriptor)
                return .success(descriptor)
            }
            failure = .failed(Errno(code))
            Glibc.close(descriptor)
        }
        return .failure(failure)
    }

    /// Turns Nagle's algorithm off (`TCP_NODELAY`) on a connected socket, so that a small
    /// write goes out at once instead of waiting for the acknowledgement of the one before.
    /// A socket that refuses the option (not TCP) is used as it is.
    package static func sendAtOnce(_ descriptor: Int32) {
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Sends what the socket takes of `buffer` now; a peer that went away is an error
    /// (`EPIPE`), never a signal that ends the process.
    package static func send(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        retryingOnInterrupt { Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Receives what the socket holds, up to the buffer's size; 0 when the peer closed its end.
    package static func receive(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        retryingOnInterrupt { recv(descriptor, buffer.baseAddress, buffer.count, 0) }
    }

    /// Waits until `descriptor` is ready (or failed: the next call on it says why); false
    /// when `seconds` passed first (nil: no limit). A wait a signal interrupts goes on for
    /// the time left.
    package static func wait(for readiness: Readiness, on descriptor: Int32, seconds: Double?) -> Bool {
        switch ready([descriptor], for: readiness, seconds: seconds) {
        case .success(let ready): !ready.isEmpty
        case .failure: true
        }
    }

    /// Waits until any of `descriptors` is ready, for `seconds` at most (nil: no limit; 0:
    /// not at all): the ones that are, none when the time passed first. A wait a signal
    /// interrupts goes on for the time left.
    package static func ready(_ descriptors: [Int32], for readiness: Readiness, seconds: Double?) -> Result<[Int32], Errno> {
        var entries = descriptors.map { pollfd(fd: $0, events: readiness.events, revents: 0) }
        let deadline = seconds.map { monotonicSeconds() + $0 }
        while true {
            // poll's timeout is milliseconds in an Int32 (about 24 days), -1 for none.
            let left = deadline.map { Int32(min(Double(Int32.max), max(0, (($0 - monotonicSeconds()) * 1000).rounded(.up)))) } ?? -1
            let count = poll(&entries, nfds_t(entries.count), left)
            if count >= 0 { return .success(entries.filter { $0.revents != 0 }.map(\.fd)) }
            let error = Errno.current
            if error != .interrupted { return .failure(error) }
        }
    }

    /// Whether a connection between requests is as it should be: open, with nothing to
    /// read. Anything else (the peer's end of it, an error, or bytes it sent unasked) means
    /// the peer closed it or is closing it.
    package static func isQuiet(_ descriptor: Int32) -> Bool {
        // POLLRDHUP (Linux; Glibc exports it only under _GNU_SOURCE): the peer shut its side.
        let peerShut: Int16 = 0x2000
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN) | peerShut, revents: 0)
        return retryingOnInterrupt { poll(&entry, 1, 0) } == .success(0)
    }
}
