import CairnCluster
import CairnTestSupport
import Dispatch
import Foundation
import Synchronization

/// Past one machine. Backups: `cairn server backup` of a shard of many users into a folder (a
/// git bundle for each user with something new, and a manifest), against rclone copying the
/// shard's folder as it is — a whole copy first, then rclone's own comparison of every file —
/// and the restore of every user against rclone copying the folder back. Load: the serving
/// workload's load run through HAProxy, routed by bucket, to one shard and then to three.
struct ClusterBenchmark {
    let bench: Workbench
    var backupUsers = 1_000
    var loadUsers = 100
    var loadSyncs = 2
    var loadParallel = 16

    /// Rows of the backups: figure, `cairn server backup`, rclone.
    func backups() throws -> [(String, String, String)] {
        let work = try bench.scratch("backups")
        defer { if !bench.keep { bench.remove(work) } }
        let uids = (1...backupUsers).map { "u\($0)" }
        // A template history — a device's store of a few checkpoints — fetched into every
        // user's repository as `cairn server init` makes them (a fetch runs no hook).
        try bench.cairnCommand(home: work + "/admin", ["server", "init", work + "/template"] + ["t"]).run()
        let device = work + "/device"
        try bench.cairnCommand(home: device, ["init", "t", "--remote", work + "/template/t.git"]).run()
        for note in 1...3 {
            try Command(
                "/bin/sh",
                [
                    "-c",
                    "printf '{\"n\":%d}' \(note) | '\(bench.cairn)' --home '\(device)' put users/t/notes/n\(note) && '\(bench.cairn)' --home '\(device)' sync -q",
                ],
                environment: bench.environment
            ).run()
        }
        let shard = work + "/shard"
        for batch in stride(from: 0, to: uids.count, by: 500).map({ Array(uids[$0..<min($0 + 500, uids.count)]) }) {
            try bench.cairnCommand(home: work + "/admin", ["server", "init", shard] + batch).run()
        }
        let fill = uids.map { bench.gitCommand(shard + "/\($0).git", ["fetch", "-q", work + "/template/t.git", "main:main"]) }
        let failures = ServingBenchmark.runAll(fill, parallel: 4)
        guard failures.isEmpty else { throw Command.Failure(description: "backups: \(failures[0])") }

        func timed(_ command: Command) throws -> Double {
            let start = Stopwatch.now()
            try command.run()
            return Stopwatch.now() - start
        }
        let rclone = { (from: String, to: String) in
            Command("/usr/bin/rclone", ["--config", "/dev/null", "-q", "copy", from, to], environment: bench.environment)
        }
        let backup = { (target: String) in bench.cairnCommand(home: work + "/admin", ["server", "backup", shard, "--to", target]) }
        var rows: [(String, String, String)] = []
        let first = (try timed(backup(work + "/cairn-backup")), try timed(rclone(shard, work + "/rclone-backup")))
        rows.append(
            ("the first backup of \(backupUsers.formatted()) users (s)", Samples.format(first.0 / 1_000), Samples.format(first.1 / 1_000)))
        var nothing = (cairn: Samples(), rclone: Samples())
        for _ in 0..<bench.rounds {
            nothing.cairn.append(try timed(backup(work + "/cairn-backup")) / 1_000)
            nothing.rclone.append(try timed(rclone(shard, work + "/rclone-backup")) / 1_000)
        }
        rows.append(("a backup with nothing new (s)", nothing.cairn.summary, nothing.rclone.summary))
        // Ten users push a checkpoint.
        try Command(
            "/bin/sh",
            [
                "-c",
                "printf '{\"n\":4}' | '\(bench.cairn)' --home '\(device)' put users/t/notes/n4 && '\(bench.cairn)' --home '\(device)' sync -q",
            ],
            environment: bench.environment
        ).run()
        for uid in uids.prefix(10) {
            try bench.gitCommand(shard + "/\(uid).git", ["fetch", "-q", work + "/template/t.git", "main:main"]).run()
        }
        let ten = (try timed(backup(work + "/cairn-backup")), try timed(rclone(shard, work + "/rclone-backup")))
        rows.append(("a backup after 10 users pushed (s)", Samples.format(ten.0 / 1_000), Samples.format(ten.1 / 1_000)))
        let sizes = (try Self.bytes(under: work + "/cairn-backup"), try Self.bytes(under: work + "/rclone-backup"))
        rows.append(
            ("what the target holds (MB)", Samples.format(Double(sizes.0) / 1_000_000), Samples.format(Double(sizes.1) / 1_000_000)))
        let restore = (
            try timed(
                bench.cairnCommand(home: work + "/admin", ["server", "restore", work + "/restored", "--from", work + "/cairn-backup"])),
            try timed(rclone(work + "/rclone-backup", work + "/copied-back"))
        )
        rows.append(
            (
                "restore of every user, per 1,000 users (s)", Samples.format(restore.0 / Double(backupUsers)),
                Samples.format(restore.1 / Double(backupUsers))
            ))
        // The restored repositories are the shard's.
        for uid in [uids[0], uids[9], uids[uids.count - 1]] {
            let restored = try bench.gitCommand(work + "/restored/\(uid).git", ["rev-parse", "main"]).run()
            let original = try bench.gitCommand(shard + "/\(uid).git", ["rev-parse", "main"]).run()
            guard restored == original else {
                throw Command.Failure(description: "backups: \(uid) restored at \(restored), not \(original)")
            }
        }
        return rows
    }

    /// Rows of the load run through HAProxy: figure, one shard, three shards.
    func load() throws -> [(String, String, String)] {
        let work = try bench.scratch("cluster")
        defer { if !bench.keep { bench.remove(work) } }
        let issuer = try TestIssuer(folder: work + "/idp", environment: bench.environment)
        let uids = (1...loadUsers).map { "load\($0)" }
        var tokens: [String: String] = [:]
        for uid in uids { tokens[uid] = try issuer.token(uid) }
        var columns: [[String]] = []
        var drill: [(String, String)] = []
        for shards in [1, 3] {
            let folder = work + "/\(shards)-shards"
            let names = (1...shards).map { "shard\($0)" }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var fronts = try names.map {
                try FrontProcess(cairn: bench.cairn, folder: folder + "/" + $0, issuer: issuer, log: folder + "/\($0).log")
            }
            defer { for front in fronts { front.stop() } }
            let map = BucketMap(evenlyOver: names)
            try map.text.write(toFile: folder + "/buckets.map", atomically: true, encoding: .utf8)
            let backends = zip(names, fronts).map { "backend \($0)\n    server \($0) 127.0.0.1:\($1.port)\n" }.joined(separator: "\n")
            let proxy = try HAProxyServer(
                sections: """
                    frontend git
                        bind 127.0.0.1:@PORT@
                        http-request set-var(txn.uid) path,field(3,/),url_dec,regsub(\\.git$,)
                        http-request set-var(txn.shard) var(txn.uid),crc32,mod(1024),map_int(\(folder)/buckets.map)
                        use_backend %[var(txn.shard)]

                    \(backends)
                    """)
            var devices: [(home: String, uid: String)] = []
            for uid in uids {
                for device in ["a", "b"] {
                    let home = folder + "/\(uid)-\(device)"
                    try bench.cairnCommand(home: home, ["init", uid, "--remote", "http://\(uid)@127.0.0.1:\(proxy.port)/git/\(uid).git"])
                        .run()
                    devices.append((home, uid))
                }
            }
            let serving = ServingBenchmark(bench: bench)
            let retries = "0.2,0.5,1,2,4,8"
            let everyDevice = devices
            let acknowledged = Mutex<[(uid: String, note: String)]>([])
            let cpu = fronts.map { ServerCPU(pid: $0.pid) }
            for server in cpu { server.waitForIdle() }
            let before = try cpu.map { try $0.milliseconds() }
            let start = Stopwatch.now()
            for round in 0..<loadSyncs {
                let commands = devices.enumerated().map { number, device in
                    serving.syncAfterWriting(
                        home: device.home, uid: device.uid, note: "r\(round)-d\(number)",
                        environment: ["CAIRN_TOKEN": tokens[device.uid]!, "CAIRN_SYNC_RETRY": retries])
                }
                let failed = ServingBenchmark.runAll(commands, parallel: loadParallel) { index in
                    acknowledged.withLock { $0.append((everyDevice[index].uid, "r\(round)-d\(index)")) }
                }
                if !failed.isEmpty {
                    say("  \(shards) shards, round \(round): \(failed.count) syncs failed after their retries, left for the next")
                }
            }
            let seconds = (Stopwatch.now() - start) / 1_000
            for server in cpu { server.waitForIdle() }
            let spent = try zip(cpu, before).map { try $0.milliseconds() - $1 }
            if shards == 3 {
                // The drill: shard 2 backed up, then a round of writes its backup lacks, then
                // killed with its folder deleted, restored, and started again on its address.
                let lost = folder + "/shard2"
                try bench.cairnCommand(home: folder + "/admin", ["server", "backup", lost, "--to", folder + "/backup2"]).run()
                let commands = devices.enumerated().map { number, device in
                    serving.syncAfterWriting(
                        home: device.home, uid: device.uid, note: "drill-d\(number)",
                        environment: ["CAIRN_TOKEN": tokens[device.uid]!, "CAIRN_SYNC_RETRY": retries])
                }
                _ = ServingBenchmark.runAll(commands, parallel: loadParallel) { index in
                    acknowledged.withLock { $0.append((everyDevice[index].uid, "drill-d\(index)")) }
                }
                fronts[1].kill()
                try FileManager.default.removeItem(atPath: lost)
                let restoreStart = Stopwatch.now()
                try bench.cairnCommand(home: folder + "/admin", ["server", "restore", lost, "--from", folder + "/backup2"]).run()
                let restoreSeconds = (Stopwatch.now() - restoreStart) / 1_000
                var lacked = 0
                for (uid, note) in acknowledged.withLock({ $0 }) where map[UserBucket.of(uid)] == "shard2" {
                    if (try? bench.gitCommand(lost + "/\(uid).git", ["cat-file", "-e", "main:users/\(uid)/notes/\(note).json"]).run())
                        == nil
                    {
                        lacked += 1
                    }
                }
                let port = try HAProxyBackendPort(proxy: proxy, backend: "shard2")
                fronts[1] = try FrontProcess(
                    cairn: bench.cairn, folder: lost, issuer: issuer, log: folder + "/shard2-again.log", port: port)
                let users2 = uids.filter { map[UserBucket.of($0)] == "shard2" }.count
                drill = [
                    (
                        "the drill: shard 2 killed and its folder deleted, restored from a backup older than a round of writes: acknowledged writes it lacked, pushed again by the devices",
                        lacked.formatted()
                    ),
                    ("the drill: the restore, per 1,000 users (s)", Samples.format(restoreSeconds * 1_000 / Double(max(users2, 1)))),
                ]
            }
            for device in devices {
                try bench.cairnCommand(
                    home: device.home, ["sync", "-q"], ["CAIRN_TOKEN": tokens[device.uid]!, "CAIRN_SYNC_RETRY": retries]
                ).run()
            }
            var lost = 0
            for (uid, note) in acknowledged.withLock({ $0 }) {
                let shard = map[UserBucket.of(uid)]
                if (try? bench.gitCommand(folder + "/\(shard)/\(uid).git", ["cat-file", "-e", "main:users/\(uid)/notes/\(note).json"]).run())
                    == nil
                {
                    lost += 1
                }
            }
            let syncs = devices.count * loadSyncs
            let perShard = names.map { name in uids.filter { map[UserBucket.of($0)] == name }.count }
            let syncsPerShard = perShard.map { $0 * 2 * loadSyncs }
            let cpuPerSync = zip(spent, syncsPerShard).map { $1 == 0 ? 0 : $0 / Double($1) }
            columns.append([
                Samples.format(Double(syncs) / seconds),
                cpuPerSync.map { Samples.format($0) }.joined(separator: " / "),
                "\(perShard.min() ?? 0) / \(perShard.max() ?? 0)",
                "\(acknowledged.withLock { $0.count }.formatted()) / \(lost)",
            ])
        }
        let figures = [
            "syncs a second: \(loadUsers * 2) devices of \(loadUsers) users, \(loadSyncs) writes and syncs each, \(loadParallel) at once, through HAProxy",
            "server CPU per sync, each shard (ms)",
            "users per shard, fewest / most",
            "writes acknowledged by a sync / lost",
        ]
        return figures.enumerated().map { ($0.element, columns[0][$0.offset], columns[1][$0.offset]) } + drill.map { ($0.0, "–", $0.1) }
    }

    /// The port HAProxy's configuration gives the server of `backend`.
    func HAProxyBackendPort(proxy: HAProxyServer, backend: String) throws -> Int {
        let configuration = try String(contentsOfFile: proxy.folder.path + "/haproxy.cfg", encoding: .utf8)
        let lines = configuration.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(of: "backend \(backend)"),
            let server = lines[(start + 1)...].first(where: { $0.contains("server ") }),
            let port = server.split(separator: ":").last.flatMap({ Int($0.split(separator: " ")[0]) })
        else {
            throw Command.Failure(description: "no server of \(backend) in HAProxy's configuration")
        }
        return port
    }

    static func bytes(under folder: String) throws -> Int {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return 0 }
        var total = 0
        while let path = walker.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/" + path)
            if attributes[.type] as? FileAttributeType == .typeRegular { total += (attributes[.size] as? Int) ?? 0 }
        }
        return total
    }
}
