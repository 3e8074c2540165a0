import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The link the phone-network benchmark syncs over (``LinkProxy``) costs what a phone's link
/// costs: a round trip for the connection, one for each request and its answer, a large
/// answer its size over the bandwidth, a lost segment a retransmission timeout; a stall holds
/// every byte, a cut closes the connection after its bytes. Measured against a server on 127.0.0.1 that answers a
/// line with a given number of bytes.
@Suite(.runningTime(atMost: .seconds(60)), .historiesVerified)
struct ALinkProxyBehavesLikeAPhonesLinkTests {
    /// A server that answers each line a client sends with `answer` bytes, on one connection.
    final class LineServer: Sendable {
        let port: Int
        private let listener: Int32

        init(answer: Int) throws {
            let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in.loopback(port: 0)
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(listening, $0, length) == 0 && listen(listening, 4) == 0 && getsockname(listening, $0, &length) == 0
                }
            }
            guard bound else {
                close(listening)
                throw ProxyStartError(description: "LineServer: cannot listen")
            }
            listener = listening
            port = Int(in_port_t(bigEndian: address.sin_port))
            Thread.detachNewThread {
                let connection = accept(listening, nil, nil)
                guard connection >= 0 else { return }
                defer { close(connection) }
                var byte: UInt8 = 0
                let payload = [UInt8](repeating: 0x61, count: answer)
                while recv(connection, &byte, 1, 0) == 1 {
                    if byte == 0x0A {
                        _ = payload.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    }
                }
            }
        }

        deinit { close(listener) }
    }

    /// Connects to `port`, then sends a line and reads `answer` bytes `requests` times;
    /// returns the seconds from the connect to the last answer's last byte.
    static func exchange(port: Int, requests: Int, answer: Int) throws -> Double {
        let started = Date()
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in.loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        #expect(connected)
        var buffer = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<requests {
            var line: UInt8 = 0x0A
            #expect(send(descriptor, &line, 1, Int32(MSG_NOSIGNAL)) == 1)
            var received = 0
            while received < answer {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                guard count > 0 else { break }
                received += count
            }
            #expect(received == answer)
        }
        return Date().timeIntervalSince(started)
    }

    @Test func eachRequestCostsARoundTripAndTheConnectionOneMore() throws {
        let server = try LineServer(answer: 10)
        let link = try LinkProxy(upstreamPort: server.port, roundTrip: 0.1, bytesPerSecond: 2_000_000)
        defer { link.stop() }
        let seconds = try withExtendedLifetime(server) { try Self.exchange(port: link.port, requests: 3, answer: 10) }
        // The connection's round trip and three requests' round trips: 0.4 s, and little more.
        #expect(seconds >= 0.4 && seconds < 0.55, "\(seconds) s")
        let traffic = link.traffic
        #expect(traffic.connections == 1)
        #expect(traffic.tlsHandshakes == 0)
        #expect(traffic.bytesToServer == 3 && traffic.bytesToClient == 30, "\(traffic)")
    }

    @Test func aLargeAnswerTakesItsSizeOverTheBandwidth() throws {
        let server = try LineServer(answer: 500_000)
        let link = try LinkProxy(upstreamPort: server.port, roundTrip: 0.05, bytesPerSecond: 1_000_000)
        defer { link.stop() }
        let seconds = try withExtendedLifetime(server) { try Self.exchange(port: link.port, requests: 1, answer: 500_000) }
        // Two round trips (0.1 s) and 500 KB at 1 MB/s (0.5 s).
        #expect(seconds >= 0.6 && seconds < 0.8, "\(seconds) s")
        #expect(link.traffic.bytesToClient == 500_000)
    }

    /// A lost segment costs a retransmission timeout (0.2 s plus the round trip), and the
    /// bytes behind it wait: with one segment in ten lost, 100 KB (70 segments) take about
    /// seven timeouts more than their size over the bandwidth.
    @Test func aLostSegmentCostsARetransmissionTimeout() throws {
        let server = try LineServer(answer: 100_000)
        let link = try LinkProxy(upstreamPort: server.port, roundTrip: 0.02, bytesPerSecond: 10_000_000, lossRate: 0.1, seed: 3)
        defer { link.stop() }
        let seconds = try withExtendedLifetime(server) { try Self.exchange(port: link.port, requests: 1, answer: 100_000) }
        let lost = link.traffic.lostSegments
        #expect(lost > 0 && lost < 25, "\(link.traffic)")
        // Two round trips, 10 ms over the bandwidth, and each lost segment's timeout.
        let expected = 0.04 + 0.01 + Double(lost) * (LinkProxy.minimumRetransmissionTimeout + 0.02)
        #expect(seconds >= expected - 0.05 && seconds < expected + 0.3, "\(seconds) s, \(lost) segments lost")
    }

    /// A stall holds every byte, on every connection, for its time; then they go on.
    @Test func aStallHoldsEveryByteForItsTime() throws {
        let server = try LineServer(answer: 10)
        let link = try LinkProxy(upstreamPort: server.port, roundTrip: 0.05, bytesPerSecond: 2_000_000)
        defer { link.stop() }
        link.stall(for: 0.5)
        let seconds = try withExtendedLifetime(server) { try Self.exchange(port: link.port, requests: 1, answer: 10) }
        // The request waits out the stall, then its answer crosses: 0.5 s and half a round trip.
        #expect(seconds >= 0.5 && seconds < 0.7, "\(seconds) s")
    }

    /// A cut lets the bytes before it through, then closes the connection: the client reads
    /// exactly that many bytes, then the end.
    @Test func aCutClosesTheConnectionAfterItsBytes() throws {
        let server = try LineServer(answer: 10_000)
        let link = try LinkProxy(upstreamPort: server.port, roundTrip: 0.02, bytesPerSecond: 10_000_000)
        defer { link.stop() }
        link.cut(after: 4_000, toServer: false)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in.loopback(port: link.port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        #expect(connected)
        var line: UInt8 = 0x0A
        #expect(send(descriptor, &line, 1, Int32(MSG_NOSIGNAL)) == 1)
        var received = 0
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += count
        }
        withExtendedLifetime(server) {}
        #expect(received == 4_000)
        #expect(link.traffic.cuts == 1)
    }
}
