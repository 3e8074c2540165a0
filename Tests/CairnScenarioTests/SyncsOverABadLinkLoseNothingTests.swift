import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Syncs over a phone's link made worse: ``LinkProxy`` (100 ms round trip, 2 MB/s each way) in
/// front of lighttpd serving u1's repository of `cairn server init`, whose hook checks every
/// push. One segment in a hundred lost; a transfer cut at each tenth of its bytes; the whole
/// link stalled for a minute. Each sync ends with nothing lost and no false "pushed", a sync
/// that met a fault succeeds on the retry schedule, and each test prints how long the syncs
/// took to succeed (CairnCore.docc, Reliability, *Network faults*).
@Suite(.serialized, .historiesVerified) struct SyncsOverABadLinkLoseNothingTests {
    typealias Device = NetworkFaultTests.Device

    /// The served repository and the link in front of its server.
    typealias Rig = NetworkFaultTests.ServedRepository<LinkProxy>

    static func rig(lossRate: Double = 0) throws -> Rig {
        try Rig { try LinkProxy(upstreamPort: $0, roundTrip: 0.1, bytesPerSecond: 2_000_000, lossRate: lossRate, seed: 47) }
    }

    /// The tool's own timeout and retry schedule, as a device has them by default.
    static let defaults = ["CAIRN_NETWORK_TIMEOUT": "30", "CAIRN_SYNC_RETRY": "5,30,300"]
    /// A short timeout and schedule, for the faults that a retry meets at once.
    static let short = ["CAIRN_NETWORK_TIMEOUT": "5"]

    /// `count` notes of 24 KB of random hexadecimal digits each (about 12 KB once zlib packs
    /// them), named `name-0`, `name-1`…: enough bytes that a push spans many segments.
    static func writeNotes(_ device: Device, _ name: String, count: Int) throws {
        var generator = SplitMix(seed: name.utf8.reduce(UInt64(0)) { $0 &* 31 &+ UInt64($1) })
        for index in 0..<count {
            let text = (0..<3_000).map { _ in String(format: "%08x", UInt32(truncatingIfNeeded: generator.next())) }.joined()
            let put = try device(["put", "users/u1/notes/\(name)-\(index)"], input: #"{"text":"\#(text)"}"#)
            #expect(put.status == 0, "\(put.stderr)")
        }
    }

    /// A sync of `device`: it succeeds, and the server's `main` is the device's HEAD after it.
    /// Returns how long it took.
    @discardableResult
    static func syncs(_ device: Device, on rig: Rig, environment: [String: String], _ comment: String) throws -> Double {
        let started = Date()
        // Bounded well past the retry schedule's first two waits and a stall's minute.
        let result = try device(["sync", "-q"], environment: environment, limit: 150)
        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 0, "\(comment): \(result.stderr)")
        #expect(try rig.main() == device.head(), "\(comment): the server's branch is the device's")
        return seconds
    }

    /// Two devices: A creates the store and pushes it, B restores it.
    static func devices(on rig: Rig) throws -> (Device, Device) {
        let (a, b) = (Device("A"), Device("B"))
        let created = try a(["init", "u1", "--schema", "life-in-uk", "--remote", rig.url])
        guard created.status == 0 else { throw NetworkFaultTests.Failure("init: \(created.stderr)") }
        try syncs(a, on: rig, environment: short, "the first sync")
        let cloned = try b(["--user", "u1", "clone", rig.url], environment: short)
        guard cloned.status == 0 else { throw NetworkFaultTests.Failure("clone: \(cloned.stderr)") }
        return (a, b)
    }

    static func format(_ seconds: [Double]) -> String {
        seconds.map { String(format: "%.2f", $0) }.joined(separator: ", ") + " s"
    }

    /// One TCP segment in a hundred is lost each way, and arrives a retransmission timeout
    /// late with every byte behind it. Two devices take turns writing notes and syncing, the
    /// second merging: every sync succeeds with the default timeout, and in the end both
    /// devices and the server hold every note. The same rounds over the link without loss
    /// come first, for their times.
    @Test(.runningTime(atMost: .seconds(300))) func onePercentOfSegmentsLostSlowsSyncsAndLosesNothing() throws {
        var times: [Double: [Double]] = [:]
        var lost = 0
        for lossRate in [0, 0.01] {
            let rig = try Self.rig(lossRate: lossRate)
            defer { rig.stop() }
            let (a, b) = try Self.devices(on: rig)
            for round in 0..<4 {
                for (device, name) in [(a, "a"), (b, "b")] {
                    try Self.writeNotes(device, "round\(round)-\(name)", count: 12)
                    times[lossRate, default: []].append(
                        try Self.syncs(device, on: rig, environment: Self.defaults, "round \(round), device \(name)"))
                }
            }
            try Self.syncs(a, on: rig, environment: Self.defaults, "A's last sync")
            #expect(try a.tree() == b.tree())
            let notes = try a(["ls", "users/u1/notes"]).stdout.split(separator: "\n")
            #expect(notes.count == 4 * 2 * 12)
            #expect(try rig.damage() + a.damage() + b.damage() == [])
            lost = rig.proxy.traffic.lostSegments
        }
        #expect(lost > 0, "segments were lost")
        print(
            "SyncsOverABadLink: 8 syncs, each pushing 12 notes (the second device merging): \(Self.format(times[0] ?? [])) without loss; "
                + "\(Self.format(times[0.01] ?? [])) with 1% of segments lost (\(lost) in all)")
    }

    /// A push, then a restore, each cut at one tenth of its bytes, then two tenths, and so on
    /// to nine: the sync (or the clone) that met the cut tries again on its schedule and
    /// succeeds, having said nothing false, and the next device finds every note.
    @Test(.runningTime(atMost: .seconds(300))) func aTransferCutAtEachTenthSucceedsOnTheRetrySchedule() throws {
        let rig = try Self.rig()
        defer { rig.stop() }
        let (a, _) = try Self.devices(on: rig)
        let retry = Self.short.merging(["CAIRN_SYNC_RETRY": "0.5,1,2"]) { $1 }

        // A clean push of the same size first, for its bytes.
        try Self.writeNotes(a, "clean", count: 8)
        rig.proxy.reset()
        let clean = try Self.syncs(a, on: rig, environment: Self.short, "the clean push")
        let pushBytes = rig.proxy.traffic.bytesToServer
        var pushes: [Double] = []
        for tenth in 1...9 {
            try Self.writeNotes(a, "cut\(tenth)", count: 8)
            rig.proxy.reset()
            rig.proxy.cut(after: pushBytes * tenth / 10, toServer: true)
            pushes.append(try Self.syncs(a, on: rig, environment: retry, "the push cut at \(tenth)/10"))
            #expect(rig.proxy.traffic.cuts == 1, "cut at \(tenth)/10: \(rig.proxy.traffic)")
        }

        // Restores of the store as it is now: one clean, then cut at each tenth.
        func restore(_ comment: String) throws -> Double {
            let device = Device("R")
            let started = Date()
            let cloned = try device(["--user", "u1", "clone", rig.url], environment: retry)
            let seconds = Date().timeIntervalSince(started)
            #expect(cloned.status == 0, "\(comment): \(cloned.stderr)")
            #expect(try device.head() == rig.main(), "\(comment)")
            #expect(try device(["ls", "users/u1/notes"]).stdout.split(separator: "\n").count == 10 * 8, "\(comment)")
            #expect(try device.damage() == [], "\(comment)")
            return seconds
        }
        rig.proxy.reset()
        let cleanRestore = try restore("the clean restore")
        let restoreBytes = rig.proxy.traffic.bytesToClient
        var restores: [Double] = []
        for tenth in 1...9 {
            rig.proxy.reset()
            rig.proxy.cut(after: restoreBytes * tenth / 10, toServer: false)
            restores.append(try restore("the restore cut at \(tenth)/10"))
            #expect(rig.proxy.traffic.cuts == 1, "cut at \(tenth)/10: \(rig.proxy.traffic)")
        }
        #expect(try rig.damage() + a.damage() == [])
        print(
            "SyncsOverABadLink: a push of \(pushBytes / 1_000) KB took \(String(format: "%.2f", clean)) s clean; cut at 1/10…9/10, retried after 0.5 s: \(Self.format(pushes))"
        )
        print(
            "SyncsOverABadLink: a restore of \(restoreBytes / 1_000) KB took \(String(format: "%.2f", cleanRestore)) s clean; cut at 1/10…9/10, retried after 0.5 s: \(Self.format(restores))"
        )
    }

    /// The whole link carries nothing for 60 s, from the moment a sync starts, with the
    /// tool's default timeout (30 s without data) and schedule (again after 5 s, 30 s, 5 min):
    /// the first try gives up at 30 s, the second, at 35 s, waits out the stall, and the sync
    /// succeeds soon after the link comes back, its push on the server.
    @Test(.runningTime(atMost: .seconds(300))) func aLinkStalledForAMinuteEndsInASync() throws {
        let rig = try Self.rig()
        defer { rig.stop() }
        let (a, b) = try Self.devices(on: rig)
        try Self.writeNotes(a, "stalled", count: 2)
        rig.proxy.stall(for: 60)
        let seconds = try Self.syncs(a, on: rig, environment: Self.defaults, "the stalled sync")
        #expect(seconds >= 60 && seconds < 75, "\(seconds) s")
        try Self.syncs(b, on: rig, environment: Self.defaults, "B's sync")
        #expect(try b(["ls", "users/u1/notes"]).stdout.split(separator: "\n").count == 2)
        #expect(try rig.damage() + a.damage() + b.damage() == [])
        print("SyncsOverABadLink: a sync whose link stalled for 60 s succeeded after \(String(format: "%.1f", seconds)) s")
    }
}
