import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on 127.0.0.1 that sits between a git client and a loopback smart-HTTP server
/// (``GitHTTPServer``) and breaks the connections it carries as a ``FaultPlan`` says: cut
/// after a number of bytes, stall, or slow every chunk down.
///
/// Each request is told apart by its request line: `git-upload-pack` (a fetch) or
/// `git-receive-pack` (a push). A connection kept across requests carries both when a sync
/// pushes after its fetch: a request begins where the client speaks again after the server
/// answered (HTTP/1.1 without pipelining). Bytes are counted per service and direction across
/// all the connections made since the plan was armed, so "cut the push's upload after 1,000
/// bytes" means byte 1,000 of everything the client sent for the push, whichever connection
/// carries it. A cut or a stall happens once per plan; connections after it pass untouched.
///
/// One thread accepts, one thread per connection forwards; every wait is a `poll` of at most
/// 50 ms that checks whether the proxy is stopping, so ``stop()`` ends them all within a
/// bound. A stalled connection reads and drops what the client sends (to notice when it
/// gives up) and forwards nothing either way.
public final class FaultProxy: Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// The port of the server it forwards to, on 127.0.0.1.
    public let upstreamPort: Int

    private let listener: Int32
    private let state = Mutex(State())
    private let stopping = Atomic(false)
    private let running = Atomic(0)

    /// What the connections share: the plan, what happened under it, and the counts.
    private struct State {
        var plan = FaultPlan.none
        var traffic = FaultProxyTraffic()
        /// The bytes of the plan's service when its window began (after
        /// ``FaultPlan/afterRequests`` requests); nil before.
        var base: [FaultPlan.Direction: Int]?

        init(plan: FaultPlan = .none) {
            self.plan = plan
            base = plan.afterRequests == 0 ? [:] : nil
        }

        /// Counts a request of `service` that begins with `line`, and opens the plan's
        /// window when it is the request the plan waits for.
        mutating func noteRequest(_ service: FaultPlan.Service, line: String) {
            traffic.requests[service, default: 0] += 1
            traffic.requestLines.append(line)
            if base == nil, service == plan.service, traffic.requests[service] == plan.afterRequests + 1 {
                base = [
                    .toServer: traffic.bytes(service, .toServer),
                    .toClient: traffic.bytes(service, .toClient),
                ]
            }
        }
    }

    /// Listens on an ephemeral port of 127.0.0.1 and forwards every connection to
    /// 127.0.0.1:`upstreamPort`, untouched until a plan is armed.
    public init(upstreamPort: Int) throws(ProxyStartError) {
        self.upstreamPort = upstreamPort
        (listener, port) = try ProxySockets.listen(name: "FaultProxy")
        running.add(1, ordering: .sequentiallyConsistent)
        Thread.detachNewThread { [self] in
            acceptLoop()
            running.subtract(1, ordering: .sequentiallyConsistent)
        }
    }

    deinit {
        stop()
        close(listener)
    }

    /// `http://user@127.0.0.1:<port>/git/<uid>.git`: the server's URL for `uid`, through the proxy.
    public func url(for uid: String, user: String) -> String {
        "http://\(user)@127.0.0.1:\(port)/git/\(uid).git"
    }

    /// Applies `plan` to the bytes carried from now on, with the counts started again.
    public func arm(_ plan: FaultPlan) {
        state.withLock { $0 = State(plan: plan) }
    }

    /// What was carried, and whether the plan's fault happened, since the last ``arm(_:)``.
    public var traffic: FaultProxyTraffic {
        state.withLock { $0.traffic }
    }

    /// Stops accepting, closes every connection, and waits for the threads to end (at most
    /// 5 s; they check every 50 ms). Idempotent.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        let deadline = Date() + 5
        while running.load(ordering: .sequentiallyConsistent) > 0, Date() < deadline {
            usleep(10_000)
        }
    }

    // MARK: Threads

    private var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    private func acceptLoop() {
        while !isStopping {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            running.add(1, ordering: .sequentiallyConsistent)
            Thread.detachNewThread { [self] in
                carry(client)
                running.subtract(1, ordering: .sequentiallyConsistent)
            }
        }
    }

    /// Forwards one connection until either side closes, the plan cuts it, or the proxy stops.
    private func carry(_ client: Int32) {
        defer { close(client) }
        // The first request line says which service the connection is for.
        var pending: [UInt8] = []
        while !pending.contains(0x0A), pending.count < 8192 {
            if isStopping { return }
            var entry = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) > 0 else { continue }
            guard let chunk = receive(client) else { return }
            pending += chunk
        }
        var service = Self.service(of: pending) ?? .fetch
        guard let upstream = ProxySockets.connect(toLoopbackPort: upstreamPort) else { return }
        defer { close(upstream) }
        state.withLock {
            $0.traffic.connections[service, default: 0] += 1
            $0.noteRequest(service, line: Self.firstLine(of: pending))
        }

        var stalled = false
        var queued = pending
        var direction = FaultPlan.Direction.toServer
        while !isStopping {
            if !queued.isEmpty {
                switch deliver(queued, service: service, direction: direction) {
                case .forward(let count, let delay):
                    if delay > 0 { usleep(UInt32(delay) * 1000) }
                    let target = direction == .toServer ? upstream : client
                    if !ProxySockets.sendAll(target, queued[..<count], pollMilliseconds: 50, stopping: { isStopping }) { return }
                case .cut(let count):
                    _ = ProxySockets.sendAll(
                        direction == .toServer ? upstream : client, queued[..<count], pollMilliseconds: 50, stopping: { isStopping })
                    return
                case .stall(let count):
                    _ = ProxySockets.sendAll(
                        direction == .toServer ? upstream : client, queued[..<count], pollMilliseconds: 50, stopping: { isStopping })
                    stalled = true
                }
                queued = []
            }
            // Wait for the next chunk from either side (only the client once stalled).
            var entries = [
                pollfd(fd: client, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stalled ? -1 : upstream, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&entries, 2, 50) > 0 else { continue }
            if entries[0].revents != 0 {
                guard let chunk = receive(client), !chunk.isEmpty else { return }
                if !stalled {
                    if direction == .toClient {
                        // The client speaks after an answer: the next request on this connection.
                        service = Self.service(of: chunk) ?? service
                        state.withLock { $0.noteRequest(service, line: Self.firstLine(of: chunk)) }
                    }
                    queued = chunk
                    direction = .toServer
                }
            } else if entries[1].revents != 0 {
                guard let chunk = receive(upstream), !chunk.isEmpty else { return }
                queued = chunk
                direction = .toClient
            }
        }
    }

    /// The first line of a request, without its line end.
    private static func firstLine(of request: [UInt8]) -> String {
        String(decoding: request.prefix { $0 != 0x0A && $0 != 0x0D }, as: UTF8.self)
    }

    /// The service a request's first line names, if the bytes hold it.
    private static func service(of request: [UInt8]) -> FaultPlan.Service? {
        let line = firstLine(of: request)
        if line.contains("git-receive-pack") { return .push }
        if line.contains("git-upload-pack") { return .fetch }
        return nil
    }

    /// What to do with a chunk.
    private enum Delivery {
        /// Send its first `count` bytes (all of it), after `delay` milliseconds.
        case forward(Int, delay: Int)
        /// Send its first `count` bytes, then close both sides.
        case cut(Int)
        /// Send its first `count` bytes, then forward nothing more.
        case stall(Int)
    }

    /// Counts a chunk and decides, under the plan, how much of it goes through.
    private func deliver(_ chunk: [UInt8], service: FaultPlan.Service, direction: FaultPlan.Direction) -> Delivery {
        state.withLock { state in
            let key = FaultProxyTraffic.Stream(service: service, direction: direction)
            let before = state.traffic.bytes[key, default: 0]
            let plan = state.plan
            var delivery = Delivery.forward(chunk.count, delay: 0)
            if plan.service == service, plan.direction == direction, !state.traffic.faulted, let base = state.base {
                let room = plan.offset - (before - base[direction, default: 0])
                switch plan.fault {
                case .none:
                    break
                case .delay(let milliseconds):
                    delivery = .forward(chunk.count, delay: milliseconds)
                case .cut where room < chunk.count:
                    delivery = .cut(max(0, room))
                case .stall where room < chunk.count:
                    delivery = .stall(max(0, room))
                case .cut, .stall:
                    break
                }
            }
            switch delivery {
            case .forward(let count, _):
                state.traffic.bytes[key] = before + count
            case .cut(let count), .stall(let count):
                state.traffic.bytes[key] = before + count
                state.traffic.faulted = true
            }
            return delivery
        }
    }

    // MARK: Sockets

    /// Up to 64 KiB from `descriptor`: nil at the end or on an error, empty when interrupted.
    private func receive(_ descriptor: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0 { return errno == EINTR || errno == EAGAIN ? [] : nil }
        if count == 0 { return nil }
        return Array(buffer[..<count])
    }
}
