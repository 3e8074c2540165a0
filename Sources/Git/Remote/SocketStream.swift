import CGit2
import CairnSystem
import Synchronization

// For the values per thread (`pthread_key_t`) and the host's C strings; the socket's calls
// are CairnSystem's.
#if canImport(Glibc)
import Glibc
#endif

/// The TCP connections libgit2 makes, with timeouts: libgit2 1.5 has none, so a server that
/// stops answering would hang a fetch or a push forever.
///
/// Registered once per process with `git_stream_register(GIT_STREAM_STANDARD, …)`. libgit2
/// then asks it for every plain TCP connection (`git_socket_stream_new`): http://, and under
/// https:// too, since its TLS stream (mbedTLS in Debian's build, `git_mbedtls_stream_new`)
/// is layered on `git_socket_stream_new`. Each connection
///
/// - connects without blocking (`getaddrinfo`, then a non-blocking `connect` and `poll`),
///   trying every address in turn, each for at most the timeout;
/// - fails a `recv` or `send` that makes no progress for the timeout, with libgit2's error set
///   to a network failure (`GIT_ERROR_NET`): "no data from HOST for N s".
///
/// The timeout is the one of the ``Remote`` being used (``Remote/timeout``), passed to the
/// connections it makes through a value of the calling thread (libgit2 creates them deep
/// inside `git_remote_fetch` and `git_remote_push`, with no way to hand them a setting).
///
/// SSH: libgit2 connects through this stream too (so the connect timeout holds), then gives
/// the socket to libssh2, which reads and writes it itself: an SSH transfer that stalls after
/// connecting is not timed out.
///
/// A connection outlives the fetch that opened it when its ``Remote`` pushes next: libgit2's
/// HTTP client keeps it open and sends the push's first request on it. A server may close a
/// connection it kept idle, and libgit2 does not look before it writes. The stream does: the
/// first request of a later fetch or push is not sent on a connection that the server closed
/// or spoke on unasked (for HTTP, only to close it, as a TLS `close_notify` does), and a kept
/// connection that ends before a byte of that request's answer is reported the same way.
/// Both fail with ``keptConnectionClosed`` in the message and mark the transfer's
/// ``ConnectionLog``, so that the ``Remote`` makes the request again on a new connection — as
/// HTTP clients do for a request sent on a kept connection that got no answer.
enum SocketStream {
    /// 30 s: the timeout when none is given.
    static let standardTimeout: Double = 30

    /// Registers the stream with libgit2 (`git_stream_register`); once per process.
    static func register() throws(GitError) {
        var registration = git_stream_registration()
        registration.version = GIT_STREAM_VERSION
        registration.`init` = { out, host, port in
            guard let out, let host, let port else { return -1 }
            // Before any TLS handshake on this connection (libgit2 layers its TLS on it).
            GitLibrary.loadCertificates()
            let log = SocketStream.currentLog
            log?.endpoints.append(String(cString: host) + ":" + String(cString: port))
            out.pointee = SocketStream.make(host: host, port: port, openedBy: log?.number ?? 0)
            return 0
        }
        registration.wrap = nil
        try check(git_stream_register(GIT_STREAM_STANDARD, &registration), "git_stream_register")
    }

    /// What the connections used on a thread while ``logging(into:_:)`` ran did: one fetch
    /// or push.
    final class ConnectionLog {
        /// Tells the transfers apart: a connection notes the number of the one that opened it.
        let number = ConnectionLog.numbers.wrappingAdd(1, ordering: .relaxed).newValue
        private static let numbers = Atomic<Int>(0)
        /// `host:port` of each connection opened, in order, as libgit2 asked for them.
        var endpoints: [String] = []
        /// Requests begun.
        var requests = 0
        /// Whether the first request was to go on a connection kept from an earlier transfer,
        /// and the server had closed it (see ``SocketStream``).
        var keptConnectionClosed = false
    }

    /// Runs `body`, noting in `log` what the connections it uses on this thread do.
    static func logging<T, E: Error>(into log: ConnectionLog, _ body: () throws(E) -> T) throws(E) -> T {
        try with(UnsafeRawPointer(Unmanaged.passUnretained(log).toOpaque()), in: logKey, body)
    }

    /// The log of the transfer running on this thread, if any.
    private static var currentLog: ConnectionLog? {
        pthread_getspecific(logKey).map { Unmanaged<ConnectionLog>.fromOpaque($0).takeUnretainedValue() }
    }

    /// The words a failure on a closed kept connection starts with.
    static let keptConnectionClosed = "the server closed the connection kept from the last request"

    /// The thread value ``logging(into:_:)`` sets.
    private static let logKey = threadKey()

    /// Runs `body` with `seconds` as the timeout of the connections it makes on this thread
    /// (0: no timeout).
    static func withTimeout<T, E: Error>(_ seconds: Double, _ body: () throws(E) -> T) throws(E) -> T {
        // Stored as milliseconds + 1 in the pointer's bits, so that 0 (no timeout) is not nil.
        try with(UnsafeRawPointer(bitPattern: milliseconds(seconds) + 1), in: timeoutKey, body)
    }

    /// The thread value ``withTimeout(_:_:)`` sets.
    private static let timeoutKey = threadKey()

    /// A new key of a value per thread.
    private static func threadKey() -> pthread_key_t {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }

    /// Runs `body` with `value` as this thread's value of `key`, then puts the one before back.
    private static func with<T, E: Error>(
        _ value: UnsafeRawPointer?, in key: pthread_key_t,
        _ body: () throws(E) -> T
    ) throws(E) -> T {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, value)
        defer { pthread_setspecific(key, previous) }
        return try body()
    }

    /// The timeout of new connections on this thread, in milliseconds (0: none).
    private static var currentTimeout: Int32 {
        guard let stored = pthread_getspecific(timeoutKey) else { return Int32(milliseconds(standardTimeout)) }
        return Int32(Int(bitPattern: stored) - 1)
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        guard seconds > 0, seconds.isFinite else { return 0 }
        return Int(min(seconds, 86_400) * 1000)
    }

    /// A new, unconnected stream to `host`:`port`, with libgit2's callbacks set.
    private static func make(
        host: UnsafePointer<CChar>, port: UnsafePointer<CChar>,
        openedBy transfer: Int
    ) -> UnsafeMutablePointer<git_stream> {
        let stream = UnsafeMutablePointer<cgit2_socket_stream>.allocate(capacity: 1)
        stream.initialize(to: cgit2_socket_stream())
        stream.pointee.parent.version = GIT_STREAM_VERSION
        stream.pointee.parent.connect = { stream in SocketStream.connect(stream) }
        stream.pointee.parent.read = { stream, buffer, length in SocketStream.read(stream, buffer, length) }
        stream.pointee.parent.write = { stream, data, length, _ in SocketStream.write(stream, data, length) }
        stream.pointee.parent.close = { stream in SocketStream.close(stream) }
        stream.pointee.parent.free = { stream in SocketStream.free(stream) }
        stream.pointee.host = strdup(host)
        stream.pointee.port = strdup(port)
        stream.pointee.socket = -1
        stream.pointee.timeout_ms = currentTimeout
        stream.pointee.opened_by = transfer
        stream.pointee.reading = 1
        return UnsafeMutableRawPointer(stream).assumingMemoryBound(to: git_stream.self)
    }

    /// The whole stream behind libgit2's pointer to its first field.
    private static func state(_ stream: UnsafeMutablePointer<git_stream>?) -> UnsafeMutablePointer<cgit2_socket_stream> {
        UnsafeMutableRawPointer(stream!).assumingMemoryBound(to: cgit2_socket_stream.self)
    }

    // MARK: libgit2's callbacks

    private static func connect(_ stream: UnsafeMutablePointer<git_stream>?) -> Int32 {
        let state = state(stream)
        let host = String(cString: state.pointee.host)
        let port = String(cString: state.pointee.port)
        let timeout = state.pointee.timeout_ms
        // The connection sends each write at once (no Nagle's algorithm): libgit2 writes a
        // request's headers and body in separate small pieces, and with the algorithm on each
        // later piece waits for the server's delayed acknowledgement of the first (about 40 ms
        // on Linux), once per request of every fetch and push. git's own HTTP client (curl)
        // turns it off too.
        switch Syscalls.connect(host: host, port: port, seconds: seconds(timeout)) {
        case .success(let descriptor):
            state.pointee.socket = descriptor
            return 0
        case .failure(.unresolved(let reason)):
            return fail("cannot resolve \(host): \(reason)")
        case .failure(.noAddress):
            return fail("cannot connect to \(host) port \(port): no address")
        case .failure(.failed(let error)):
            return fail("cannot connect to \(host) port \(port): \(error)")
        case .failure(.unanswered):
            return fail("cannot connect to \(host) port \(port): no answer within \(shown(timeout))")
        }
    }

    private static func read(
        _ stream: UnsafeMutablePointer<git_stream>?, _ buffer: UnsafeMutableRawPointer?,
        _ length: Int
    ) -> Int {
        let state = state(stream)
        state.pointee.reading = 1
        while true {
            switch Syscalls.receive(state.pointee.socket, into: UnsafeMutableRawBufferPointer(start: buffer, count: length)) {
            case .success(0) where unanswered(state):
                return closedWhileKept()
            case .success(let received):
                state.pointee.answered += received
                return received
            case .failure(.wouldBlock):
                guard Syscalls.wait(for: .readable, on: state.pointee.socket, seconds: seconds(state.pointee.timeout_ms)) else {
                    return fail("no data from \(String(cString: state.pointee.host)) for \(shown(state.pointee.timeout_ms))")
                }
            case .failure(.connectionReset) where unanswered(state):
                return closedWhileKept()
            case .failure(let error):
                return fail("cannot read from \(String(cString: state.pointee.host)): \(error)")
            }
        }
    }

    private static func write(
        _ stream: UnsafeMutablePointer<git_stream>?, _ data: UnsafePointer<CChar>?,
        _ length: Int
    ) -> Int {
        let state = state(stream)
        if state.pointee.reading != 0 {
            // A request begins.
            state.pointee.reading = 0
            state.pointee.answered = 0
            let log = currentLog
            state.pointee.kept_request = log.map { $0.requests == 0 && $0.number != state.pointee.opened_by } == true ? 1 : 0
            log?.requests += 1
            if state.pointee.kept_request != 0, !Syscalls.isQuiet(state.pointee.socket) { return closedWhileKept() }
        }
        while true {
            switch Syscalls.send(state.pointee.socket, from: UnsafeRawBufferPointer(start: data, count: length)) {
            case .success(let sent):
                return sent
            case .failure(.wouldBlock):
                guard Syscalls.wait(for: .writable, on: state.pointee.socket, seconds: seconds(state.pointee.timeout_ms)) else {
                    return fail("\(String(cString: state.pointee.host)) took no data for \(shown(state.pointee.timeout_ms))")
                }
            case .failure(let error) where (error == .brokenPipe || error == .connectionReset) && unanswered(state):
                return closedWhileKept()
            case .failure(let error):
                return fail("cannot send to \(String(cString: state.pointee.host)): \(error)")
            }
        }
    }

    private static func close(_ stream: UnsafeMutablePointer<git_stream>?) -> Int32 {
        let state = state(stream)
        if state.pointee.socket >= 0 {
            _ = Syscalls.close(state.pointee.socket)
            state.pointee.socket = -1
        }
        return 0
    }

    private static func free(_ stream: UnsafeMutablePointer<git_stream>?) {
        let state = state(stream)
        _ = close(stream)
        Glibc.free(state.pointee.host)
        Glibc.free(state.pointee.port)
        state.deinitialize(count: 1)
        state.deallocate()
    }

    // MARK: Helpers

    /// Whether the request being made went on a kept connection and nothing of its answer came.
    private static func unanswered(_ state: UnsafeMutablePointer<cgit2_socket_stream>) -> Bool {
        state.pointee.kept_request != 0 && state.pointee.answered == 0
    }

    /// Marks the transfer's log and fails the request (``keptConnectionClosed``).
    private static func closedWhileKept<T: BinaryInteger>() -> T {
        currentLog?.keptConnectionClosed = true
        return fail(keptConnectionClosed)
    }

    /// A timeout in milliseconds as seconds; nil for 0, no timeout.
    private static func seconds(_ milliseconds: Int32) -> Double? {
        milliseconds == 0 ? nil : Double(milliseconds) / 1000
    }

    /// `2 s`, `0.5 s`.
    private static func shown(_ milliseconds: Int32) -> String {
        milliseconds % 1000 == 0 ? "\(milliseconds / 1000) s" : "\(Double(milliseconds) / 1000) s"
    }

    /// Sets libgit2's error (a network failure) and returns -1, as its streams do.
    private static func fail<T: BinaryInteger>(_ message: String) -> T {
        git_error_set_str(Int32(GIT_ERROR_NET.rawValue), message)
        return -1
    }
}
