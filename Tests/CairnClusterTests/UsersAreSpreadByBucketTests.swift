import CairnCluster
import CairnTestSupport
import Foundation
import Testing

/// Each user belongs to one of 1,024 buckets — the CRC-32 of their uid, modulo 1,024 — which
/// HAProxy computes for every request and Cairn for every move; a shard holds whole buckets.
@Suite struct UsersAreSpreadByBucketTests {
    /// HAProxy's `crc32,mod(1024)`, on the uid it reads from the path as the example's
    /// configuration reads it, gives Cairn's bucket for every uid: Cairn never copies a
    /// router's hash, it uses the same standard checksum.
    @Test func haproxyFindsTheBucketCairnFindsForEveryUser() throws {
        let shipped = try String(contentsOfFile: Self.root + "/examples/cluster/haproxy.cfg", encoding: .utf8)
        let uidLine = try #require(shipped.split(separator: "\n").first { $0.contains("set-var(txn.uid)") })
        let proxy = try HAProxyServer(
            sections: """
                frontend git
                    bind 127.0.0.1:@PORT@
                    acl progress path_beg /git/
                    acl content path_beg /git/content/
                \(uidLine)
                    http-request return status 200 content-type text/plain lf-string "%[var(txn.uid),crc32,mod(1024)]\\n"
                """)
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_")
        var uids = ["u1", "u2", "load42", "Xq3vP8mRkLd0aZ2bT7nY9wE1fG4h"]
        for _ in 0..<200 {
            uids.append(String((0..<Int.random(in: 1...36, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for batch in stride(from: 0, to: uids.count, by: 50).map({ Array(uids[$0..<min($0 + 50, uids.count)]) }) {
            let urls = batch.map { "http://127.0.0.1:\(proxy.port)/git/\($0).git/info/refs" }
            let answered = try runBounded("/usr/bin/curl", ["-s", "--max-time", "10"] + urls).stdout.split(separator: "\n").map { Int($0) }
            #expect(answered == batch.map { UserBucket.of($0) }, "\(batch)")
        }
    }

    /// A fourth shard takes a quarter of the buckets, from the three others alike; no bucket
    /// moves between two of the old ones, and the map reads back as it was written.
    @Test func aFourthShardTakesAQuarterAndNothingMovesBetweenTheOthers() throws {
        let three = BucketMap(evenlyOver: ["shard1", "shard2", "shard3"])
        #expect(three.shardNames == ["shard1", "shard2", "shard3"])
        #expect(three.shardNames.map { three.buckets(of: $0).count } == [342, 341, 341])
        let (four, moves) = three.adding("shard4")
        #expect(moves.count == 256)
        #expect(four.buckets(of: "shard4").count == 256)
        #expect(four.shardNames.filter { $0 != "shard4" }.map { four.buckets(of: $0).count }.allSatisfy { (255...256).contains($0) })
        for bucket in 0..<UserBucket.count where four[bucket] != three[bucket] {
            #expect(four[bucket] == "shard4", "bucket \(bucket) moved from \(three[bucket]) to \(four[bucket])")
        }
        #expect(try BucketMap.parse(four.text).get() == four)
        // About a quarter of any users move with them.
        let users = (1...4_000).map { "user\($0)" }
        let moved = users.filter { four[UserBucket.of($0)] != three[UserBucket.of($0)] }.count
        #expect((800...1_200).contains(moved), "\(moved) of 4000 moved")
    }

    @Test func aMapMissingABucketOrNamingOneTwiceIsRefusedByLine() {
        var lines = BucketMap(evenlyOver: ["a", "b"]).text.split(separator: "\n").map(String.init)
        let missing = lines.filter { $0 != "7 a" }.joined(separator: "\n")
        #expect(throws: BucketMapError.self) { try BucketMap.parse(missing).get() }
        lines.append("7 b")
        if case .failure(let error) = BucketMap.parse(lines.joined(separator: "\n")) {
            #expect(error.description.contains("bucket 7 is named twice"))
        } else {
            Issue.record("a bucket named twice was read")
        }
        if case .failure(let error) = BucketMap.parse("# x\n1024 a\n") {
            #expect(error.description.contains("line 2"))
        } else {
            Issue.record("bucket 1024 was read")
        }
    }

    @Test func bucketSetsAreWrittenAsRangesAndReadBack() throws {
        let set = BucketSet([0, 1, 2, 3, 10, 500, 501])
        #expect(set.description == "0-3,10,500-501")
        #expect(try BucketSet.parse(set.description).get() == set)
        #expect(try BucketSet.parse("all").get() == .all)
        #expect(try BucketSet.parse("none").get().count == 0)
        for bad in ["5-2", "1024", "-1", "a-b", "1,,2"] {
            #expect(throws: BucketSetError.self, "\(bad)") { try BucketSet.parse(bad).get() }
        }
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .path
}
