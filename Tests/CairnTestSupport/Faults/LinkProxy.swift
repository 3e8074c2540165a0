import CairnMerge
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A TCP proxy on 127.0.0.1 that carries connections to a loopback server as a phone's link
/// would: every byte waits half the round trip on its way, and each direction carries at
/// most `bytesPerSecond`, so a request and its answer cost a round trip, a connection's
/// set-up one more, and a large pack its size over the bandwidth. The kernel here has no
/// netem; this is the same model in user space.
///
/// Each direction of a connection is a delay line: a chunk read at time t leaves the link
/// when the bytes before it have (at the bandwidth), and arrives half a round trip later.
/// A new connection's first bytes wait one round trip more, the TCP handshake the client made
/// with the proxy at once. The proxy reads as fast as the sender writes (its queue is the
/// link's buffer), and ends a direction (`shutdown`) once its sender closed and its queue is
/// delivered.
///
/// It counts connections, bytes each way, and connections that began with a TLS handshake
/// (a ClientHello's first byte, 22). Requests inside TLS are the server's to count.
///
/// A link can be made worse: segments lost (``lossRate``), every byte held for a while
/// (``stall(for:)``), a connection cut once a number of bytes went one way (``cut(after:toServer:)``).
public final class LinkProxy: Sendable {
    /// What crossed the link since the last ``reset()``.
    public struct Traffic: Sendable, Hashable {
        public var connections = 0
        public var tlsHandshakes = 0
        public var bytesToServer = 0
        public var bytesToClient = 0
        /// TCP segments lost and sent again.
        public var lostSegments = 0
        /// Connections cut by ``cut(after:toServer:)``.
        public var cuts = 0
        public init() {}
    }

    /// A TCP segment's payload (Ethernet's MTU less the IP and TCP headers with timestamps).
    public static let segmentBytes = 1_448

    /// Linux's least retransmission timeout: a lost segment is sent again this long after
    /// the round trip that should have acknowledged it.
    public static let minimumRetransmissionTimeout = 0.2

    public let port: Int
    public let upstreamPort: Int
    /// The round trip it adds, in seconds.
    public let roundTrip: Double
    /// Each direction's bandwidth.
    public let bytesPerSecond: Double
    /// The share of segments lost on the way, each way. A lost segment arrives one
    /// retransmission timeout (``minimumRetransmissionTimeout`` plus the round trip) late,
    /// and every byte behind it waits too: TCP delivers in order.
    public let lossRate: Double

    private let listener: Int32
    private let counts = Mutex(Traffic())
    private let random: Mutex<SplitMix>
    /// Nothing leaves the link before this time (monotonic seconds).
    private let stalledUntil = Mutex(0.0)
    /// An armed cut: the direction, and the bytes that may still go that way.
    private let armedCut = Mutex<(toServer: Bool, remaining: Int)?>(nil)
    private let stopping = Atomic(false)
    private let running = Atomic(0)

    /// Listens on an ephemeral port of 127.0.0.1 and carries every connection to
    /// 127.0.0.1:`upstreamPort` over the link described; which segments are lost follows
    /// `seed`.
    public init(
        upstreamPort: Int, roundTrip: Double, bytesPerSecond: Double, lossRate: Double = 0,
        seed: UInt64 = 1
    ) throws(ProxyStartError) {
        self.upstreamPort = upstreamPort
        self.roundTrip = roundTrip
        self.bytesPerSecond = bytesPerSecond
        self.lossRate = lossRate
        random = Mutex(SplitMix(seed: seed))
        (listener, port) = try ProxySockets.listen(name: "LinkProxy")
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

    /// What crossed the link since the last ``reset()``.
    public var traffic: Traffic { counts.withLock { $0 } }

    /// Starts the counts again.
    public func reset() { counts.withLock { $0 = Traffic() } }

    /// From now on, for `seconds`, nothing leaves the link either way, on every connection,
    /// new ones included: what was sent waits in the link, and goes on once the stall ends.
    public func stall(for seconds: Double) {
        let until = Self.now() + seconds
        stalledUntil.withLock { $0 = max($0, until) }
    }

    /// Cuts the connection that carries the `bytes`-th byte from now in that direction
    /// (client to server with `toServer`): the bytes before it arrive, then both its sockets
    /// close. Once.
    public func cut(after bytes: Int, toServer: Bool) {
        armedCut.withLock { $0 = (toServer, bytes) }
    }

    /// Stops accepting and ends every connection (the threads check every 20 ms; waits at
    /// most 5 s). Idempotent.
    public func stop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        let deadline = Date() + 5
        while running.load(ordering: .sequentiallyConsistent) > 0, Date() < deadline {
            usleep(10_000)
        }
    }

    private var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func acceptLoop() {
        while !isStopping {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 20) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let accepted = Self.now()
            guard let upstream = ProxySockets.connect(toLoopbackPort: upstreamPort) else {
                close(client)
                continue
            }
            counts.withLock { $0.connections += 1 }
            // Each chunk leaves when the link says, not when Nagle's algorithm would let it.
            for descriptor in [client, upstream] {
                var on: Int32 = 1
                _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            }
            let ends = Atomic(2)
            for (source, target, toServer) in [(client, upstream, true), (upstream, client, false)] {
                running.add(1, ordering: .sequentiallyConsistent)
                Thread.detachNewThread { [self] in
                    carry(from: source, to: target, toServer: toServer, opened: accepted)
                    // The second direction to end closes both sockets.
                    if ends.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 {
                        close(client)
                        close(upstream)
                    }
                    running.subtract(1, ordering: .sequentiallyConsistent)
                }
            }
        }
    }

    /// One direction of one connection, as a delay line.
    private func carry(from source: Int32, to target: Int32, toServer: Bool, opened: Double) {
        let oneWay = roundTrip / 2
        let retransmission = Self.minimumRetransmissionTimeout + roundTrip
        var queue: [(due: Double, bytes: [UInt8])] = []
        var linkFree = opened + (toServer ? roundTrip : 0)
        var sourceEnded = false
        var cutting = false
        var first = true
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !isStopping {
            let now = Self.now()
            let held = stalledUntil.withLock { $0 } > now
            while !held, let next = queue.first, next.due <= now {
                guard ProxySockets.sendAll(target, next.bytes[...], pollMilliseconds: 20, stopping: { isStopping }) else { return }
                queue.removeFirst()
            }
            if cutting && queue.isEmpty {
                // The other direction sees its socket end, and ends too.
                shutdown(source, Int32(SHUT_RDWR))
                shutdown(target, Int32(SHUT_RDWR))
                return
            }
            if sourceEnded && queue.isEmpty {
                shutdown(target, Int32(SHUT_WR))
                return
            }
            let wait = held ? 0.02 : queue.first.map { max(0, $0.due - now) } ?? 0.02
            var entry = pollfd(fd: sourceEnded || cutting ? -1 : source, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(min(wait, 0.02) * 1000) + (wait > 0 ? 1 : 0)) > 0 else { continue }
            var count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else {
                sourceEnded = true
                continue
            }
            let arrived = Self.now()
            if first, toServer, buffer[0] == 22 {
                counts.withLock { $0.tlsHandshakes += 1 }
            }
            first = false
            // A cut armed for this direction lets the bytes before it through, then closes.
            armedCut.withLock { armed in
                guard let cut = armed, cut.toServer == toServer else { return }
                if count >= cut.remaining {
                    count = cut.remaining
                    cutting = true
                    armed = nil
                } else {
                    armed = (toServer, cut.remaining - count)
                }
            }
            if cutting { counts.withLock { $0.cuts += 1 } }
            var lost = 0
            if lossRate > 0 {
                random.withLock { generator in
                    for _ in 0..<((count + Self.segmentBytes - 1) / Self.segmentBytes)
                    where Double(generator.next() >> 11) / Double(1 << 53) < lossRate {
                        lost += 1
                    }
                }
            }
            counts.withLock {
                if toServer { $0.bytesToServer += count } else { $0.bytesToClient += count }
                $0.lostSegments += lost
            }
            guard count > 0 else { continue }
            // It leaves once the bytes before it have (and each of its lost segments was sent
            // again), and arrives half a round trip later.
            let leaves = max(arrived, linkFree) + Double(count) / bytesPerSecond + Double(lost) * retransmission
            linkFree = leaves
            queue.append((leaves + oneWay, Array(buffer[..<count])))
        }
    }
}
