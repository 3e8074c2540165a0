import CairnCluster
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Shards behind HAProxy: each user reaches the shard of their bucket, a shard makes
/// repositories only for the buckets it owns, a user's pushes wait while their repository is
/// copied to another shard, and a shard that is down fails only its own users, with a status
/// the devices retry.
@Suite(.serialized, .historiesVerified) struct UsersMoveBetweenShardsTests {
    let folder = TemporaryFolder("cairn-shards")
    let provider: IdentityProvider
    let secret = "an operator's secret of enough bytes"

    init() throws {
        provider = try IdentityProvider(project: "cluster-tests")
        try secret.write(toFile: folder.path + "/secret", atomically: true, encoding: .utf8)
    }

    func shard(_ name: String, port: Int = 0, metricsPort: Int = 0, buckets: String? = nil) throws -> ServedFront {
        if let buckets {
            try FileManager.default.createDirectory(atPath: folder.path + "/\(name)/.cairn-shard", withIntermediateDirectories: true)
            try (buckets + "\n").write(toFile: folder.path + "/\(name)/.cairn-shard/buckets", atomically: true, encoding: .utf8)
        }
        return try ServedFront(
            folder: folder.path + "/" + name, provider: provider, arguments: ["--admin-secret-file", folder.path + "/secret"],
            port: port, metricsPort: metricsPort)
    }

    /// `cairn --home DEVICE ARGS…` with `uid`'s token, retries off.
    @discardableResult
    func on(_ device: String, _ uid: String, _ arguments: [String], input: String? = nil) throws -> ProcessResult {
        try runBounded(
            CLI.executable, ["--home", folder.path + "/" + device] + arguments, input: input,
            environment: ["CAIRN_SYNC_RETRY": "none", "CAIRN_TOKEN": try provider.token(for: uid)], limit: 60)
    }

    func write(_ device: String, _ uid: String, _ note: String) throws -> ProcessResult {
        #expect(try on(device, uid, ["put", "users/\(uid)/notes/\(note)"], input: #"{"n": "\#(note)"}"#).status == 0)
        return try on(device, uid, ["sync"])
    }

    func admin(_ shard: ServedFront, _ method: String, _ path: String, secret: String? = nil) throws -> (status: Int, body: String) {
        // The body to a file: a bundle is not text.
        let body = folder.path + "/answer-\(UUID().uuidString)"
        let status = try runBounded(
            "/usr/bin/curl",
            [
                "-s", "-o", body, "-w", "%{http_code}", "-X", method, "-H", "Authorization: Bearer \(secret ?? self.secret)",
                "--max-time", "30", "http://127.0.0.1:\(shard.metricsPort)\(path)",
            ]
        ).stdout
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: body))) ?? Data()
        return (Int(status) ?? 0, String(decoding: bytes, as: UTF8.self))
    }

    /// A shard that owns none of a user's bucket makes no repository for them: 503 with
    /// Retry-After, which the device reports as a failure to retry (exit 75).
    @Test func aShardMakesRepositoriesOnlyForItsOwnBuckets() throws {
        let served = try shard("s1", buckets: "none")
        defer { served.stop() }
        #expect(try on("phone", "u1", ["init", "u1", "--remote", served.url("u1")]).status == 0)
        let refused = try write("phone", "u1", "a")
        #expect(refused.status == 75 && refused.stderr.contains("503"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/s1/u1.git"))
        let owned = try runBounded(
            "/usr/bin/curl",
            [
                "-s", "-X", "PUT", "-H", "Authorization: Bearer \(secret)", "--data", "\(UserBucket.of("u1"))",
                "http://127.0.0.1:\(served.metricsPort)/admin/buckets",
            ])
        #expect(owned.stdout.contains("\(UserBucket.of("u1"))"), "\(owned.stdout)")
        #expect(try on("phone", "u1", ["sync"]).status == 0, "the bucket is this shard's now")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/s1/u1.git"))
    }

    /// The administration is off without an operator's secret, and asks for it with one.
    @Test func theAdministrationAsksForTheOperatorsSecret() throws {
        let served = try shard("s1")
        defer { served.stop() }
        #expect(try admin(served, "GET", "/admin/users", secret: "a guess").status == 401)
        #expect(try admin(served, "GET", "/admin/users").status == 200)
        let plain = try ServedFront(folder: folder.path + "/s2", provider: provider)
        defer { plain.stop() }
        let off = try runBounded("/usr/bin/curl", ["-s", "-w", "%{http_code}", "http://127.0.0.1:\(plain.metricsPort)/admin/users"]).stdout
        #expect(off.hasSuffix("404") && off.contains("--admin-secret-file"), "\(off)")
    }

    /// While a user's repository is exported for a move, their pushes get 503 and their
    /// fetches go on; once the move is abandoned, pushes go in again.
    @Test func pushesWaitWhileARepositoryIsCopiedAndFetchesGoOn() throws {
        let served = try shard("s1")
        defer { served.stop() }
        #expect(try on("phone", "u1", ["init", "u1", "--remote", served.url("u1")]).status == 0)
        #expect(try write("phone", "u1", "a").status == 0)
        #expect(try on("tablet", "u1", ["clone", served.url("u1")]).status == 0)
        let exported = try admin(served, "POST", "/admin/users/u1/export")
        #expect(exported.status == 200 && exported.body.hasPrefix("# v2 git bundle"), "\(exported.status) \(exported.body.prefix(300))")
        let held = try write("phone", "u1", "b")
        #expect(held.status == 75 && held.stderr.contains("503"), "\(held.stderr)")
        #expect(try on("tablet", "u1", ["sync"]).status == 0, "a fetch with nothing to push goes on")
        // Retiring asks for the hold; releasing lets the push in.
        #expect(try admin(served, "POST", "/admin/users/u1/release").status == 200)
        #expect(try on("phone", "u1", ["sync"]).status == 0)
        #expect(served.requestLines.contains { $0.contains("status=503") && $0.contains("held") }, "\(served.log)")
    }

    /// Three shards behind HAProxy, routed by bucket: every user's repository is made on one
    /// shard, the one their bucket names. A fourth joins: a quarter of the users move to it,
    /// with their histories whole. Then a shard goes down: its users get 503 with Retry-After
    /// from HAProxy, the others sync.
    @Test func haproxyRoutesByBucketAShardJoinsAndADownShardFailsOnlyItsUsers() throws {
        let shards = try (1...4).map { try shard("shard\($0)", buckets: $0 == 4 ? "none" : nil) }
        defer { for served in shards { served.stop() } }
        let buckets = folder.path + "/buckets.map", users = folder.path + "/users.map"
        try BucketMap(evenlyOver: ["shard1", "shard2", "shard3"]).text.write(toFile: buckets, atomically: true, encoding: .utf8)
        try "".write(toFile: users, atomically: true, encoding: .utf8)
        let shipped = try String(contentsOfFile: UsersAreSpreadByBucketTests.root + "/examples/cluster/haproxy.cfg", encoding: .utf8)
        let frontend = shipped.split(separator: "\n").filter {
            $0.hasPrefix("    acl ") || $0.hasPrefix("    http-request ") || $0.hasPrefix("    use_backend")
        }
        .joined(separator: "\n").replacingOccurrences(of: "@USERS_MAP@", with: users).replacingOccurrences(
            of: "@BUCKETS_MAP@", with: buckets)
        let backends = shards.enumerated().map { index, served in
            "backend shard\(index + 1)\n    option httpchk GET /healthz\n    server s\(index + 1) 127.0.0.1:\(served.port) check port \(served.metricsPort) inter 500ms fall 1 rise 1\n"
        }.joined(separator: "\n")
        let proxy = try HAProxyServer(
            sections: "frontend git\n    bind 127.0.0.1:@PORT@\n\(frontend)\n    default_backend shard1\n\n\(backends)",
            errorFile503:
                "HTTP/1.0 503 Service Unavailable\r\nRetry-After: 5\r\nContent-Type: text/plain\r\n\r\nthe shard does not answer\n")
        let uids = (1...16).map { "u\($0)" }
        for uid in uids {
            #expect(try on(uid, uid, ["init", uid, "--remote", "http://\(uid)@127.0.0.1:\(proxy.port)/git/\(uid).git"]).status == 0)
            let synced = try write(uid, uid, "a")
            #expect(synced.status == 0, "\(uid): \(synced.stderr)")
        }
        let three = BucketMap(evenlyOver: ["shard1", "shard2", "shard3"])
        for uid in uids {
            let holders = (1...4).filter { FileManager.default.fileExists(atPath: folder.path + "/shard\($0)/\(uid).git") }
            #expect(holders == [Int(three[UserBucket.of(uid)].dropFirst(5))!], "\(uid) on \(holders)")
        }

        // While the users move, every device keeps writing and syncing, retrying what is held.
        let base = folder.path, issuer = provider
        let stop = Mutex(false)
        let outcomes = Mutex<(acknowledged: [(uid: String, note: String)], failed: [String])>(([], []))
        let load = Thread {
            var round = 0
            while !stop.withLock({ $0 }) {
                round += 1
                for uid in uids where !stop.withLock({ $0 }) {
                    let note = "load\(round)"
                    let environment = ["CAIRN_SYNC_RETRY": "0.5,1,2,4", "CAIRN_TOKEN": (try? issuer.token(for: uid)) ?? ""]
                    guard
                        (try? runBounded(
                            CLI.executable, ["--home", base + "/" + uid, "put", "users/\(uid)/notes/\(note)"], input: #"{"n": "x"}"#,
                            environment: environment
                        ).status) == 0
                    else { continue }
                    let synced = try? runBounded(CLI.executable, ["--home", base + "/" + uid, "sync"], environment: environment, limit: 60)
                    outcomes.withLock {
                        if synced?.status == 0 {
                            $0.acknowledged.append((uid, note))
                        } else {
                            $0.failed.append("\(uid): \(synced?.stderr ?? "")")
                        }
                    }
                }
            }
        }
        load.start()
        let rebalance = try runBounded(
            CLI.executable,
            [
                "server", "rebalance", "--add", "shard4", "--haproxy", "127.0.0.1:\(proxy.statsPort)",
                "--buckets-map", buckets, "--users-map", users, "--admin-secret-file", folder.path + "/secret",
            ]
                + shards.enumerated().flatMap { ["--shard", "shard\($0.offset + 1)=http://127.0.0.1:\($0.element.metricsPort)"] },
            limit: 120)
        #expect(rebalance.status == 0, "\(rebalance.stdout)\(rebalance.stderr)")
        usleep(2_000_000)
        stop.withLock { $0 = true }
        while !load.isFinished { usleep(50_000) }
        let (acknowledged, failed) = outcomes.withLock { $0 }
        #expect(failed.isEmpty, "syncs failed while users moved: \(failed)")
        #expect(!acknowledged.isEmpty)
        let four = try BucketMap.parse(String(contentsOfFile: buckets, encoding: .utf8)).get()
        let moved = uids.filter { four[UserBucket.of($0)] == "shard4" }
        #expect(rebalance.stdout.contains("Moved \(moved.count) user"), "\(rebalance.stdout)")
        for uid in uids {
            let holders = (1...4).filter { FileManager.default.fileExists(atPath: folder.path + "/shard\($0)/\(uid).git") }
            #expect(holders == [Int(four[UserBucket.of(uid)].dropFirst(5))!], "\(uid) on \(holders)")
            let synced = try write(uid, uid, "b")
            #expect(synced.status == 0, "\(uid) after the move: \(synced.stderr)")
            #expect(try on(uid, uid, ["ls", "users/\(uid)/notes"]).stdout.hasPrefix("a\nb\n"))
        }
        for (uid, note) in acknowledged {
            let shard = folder.path + "/" + four[UserBucket.of(uid)] + "/\(uid).git"
            let found = try runBounded("/usr/bin/git", ["--git-dir", shard, "cat-file", "-e", "main:users/\(uid)/notes/\(note).json"])
            #expect(found.status == 0, "\(uid)/\(note), acknowledged while users moved, is not on its shard")
        }
        // The old shard of a moved user takes nothing from them any more, even asked directly.
        if let mover = moved.first, let old = Int(three[UserBucket.of(mover)].dropFirst(5)) {
            let direct = try runBounded(
                CLI.executable, ["--home", folder.path + "/direct", "clone", shards[old - 1].url(mover)],
                environment: ["CAIRN_SYNC_RETRY": "none", "CAIRN_TOKEN": try provider.token(for: mover)])
            #expect(direct.status == 75 && direct.stderr.contains("503"), "\(direct.stderr)")
        }
        #expect(
            try String(contentsOfFile: users, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.isEmpty, "no pin left")

        // Shard 2 goes down: its users' syncs fail with a status to retry; the others' go on.
        shards[1].stop()
        usleep(1_500_000)
        for uid in uids.prefix(8) {
            let synced = try write(uid, uid, "c")
            if four[UserBucket.of(uid)] == "shard2" {
                #expect(synced.status == 75 && synced.stderr.contains("503"), "\(uid): \(synced.stderr)")
            } else {
                #expect(synced.status == 0, "\(uid): \(synced.stderr)")
            }
        }
    }
}
