import CairnCore
import CairnIdentity
import CairnTestSupport
import Dispatch
import Foundation
import Synchronization

/// `cairn server run` against lighttpd running `git http-backend` as CGI, on the same data and
/// the same hook: each server holds the repositories `cairn server init` makes for the same
/// users, and the same devices (two a user, `cairn sync` as the tool) write a document and sync,
/// several at once, in rounds the two servers take in turns. Devices present an ID token to
/// `cairn server run` and a password to lighttpd. Reported: syncs a second, the server's CPU
/// per sync (the server process and every process it ran, from `/proc`), and the time one
/// token takes to verify with the key set held. Then a load run on `cairn server run` alone:
/// many devices of many users syncing at once, retrying what the bounds refuse, and every
/// write a sync acknowledged counted on the server at the end.
struct ServingBenchmark {
    let bench: Workbench
    /// The users and devices of the rounds, and how many sync at once.
    var users = 10
    var parallel = 4
    /// The load run: its users (two devices each) and the syncs of each device.
    var loadUsers = 100
    var loadSyncs = 3
    var loadParallel = 16

    /// Rows: figure, `cairn server run`, lighttpd.
    func run() throws -> [(String, String, String)] {
        let work = try bench.scratch("serving")
        defer { if !bench.keep { bench.remove(work) } }
        let issuer = try TestIssuer(folder: work + "/idp", environment: bench.environment)
        let uids = (1...users).map { "u\($0)" }
        var tokens: [String: String] = [:]
        for uid in uids { tokens[uid] = try issuer.token(uid) }
        let password = "bench-password"

        // The same repositories for both: made as cairn server init makes them.
        for side in ["front", "lighttpd"] {
            try bench.cairnCommand(home: work + "/admin", ["server", "init", work + "/\(side)-repos"] + uids + ["--schema", "life-in-uk"])
                .run()
        }
        let front = try FrontProcess(
            cairn: bench.cairn, folder: work + "/front-repos", issuer: issuer, log: work + "/front.log",
            arguments: ["--schema", "life-in-uk"])
        defer { front.stop() }
        let lighttpd = try GitHTTPServer(
            root: work + "/lighttpd-repos", users: Dictionary(uniqueKeysWithValues: uids.map { ($0, password) }))
        defer { lighttpd.stop() }

        // Two devices a user on each side: the first made and synced, the second restored.
        struct Side {
            var name: String
            var pid: Int32
            var url: (String) -> String
            var credentials: (String) -> [String: String]
            var homes: [(home: String, uid: String)] = []
        }
        var sides = [
            Side(
                name: "front", pid: front.pid, url: { "http://\($0)@127.0.0.1:\(front.port)/git/\($0).git" },
                credentials: { ["CAIRN_TOKEN": tokens[$0]!] }),
            Side(
                name: "lighttpd", pid: lighttpd.pid, url: { lighttpd.url(for: $0) },
                credentials: { ["CAIRN_USERNAME": $0, "CAIRN_PASSWORD": password] }),
        ]
        for index in sides.indices {
            for uid in uids {
                let (first, second) = (work + "/\(sides[index].name)-\(uid)-a", work + "/\(sides[index].name)-\(uid)-b")
                let credentials = sides[index].credentials(uid).merging(["CAIRN_SYNC_RETRY": "none"]) { $1 }
                try bench.cairnCommand(home: first, ["init", uid, "--schema", "life-in-uk", "--remote", sides[index].url(uid)]).run()
                try bench.cairnCommand(home: first, ["sync", "-q"], credentials).run()
                try bench.cairnCommand(home: second, ["clone", "-q", sides[index].url(uid)], credentials).run()
                sides[index].homes += [(first, uid), (second, uid)]
            }
        }

        // Rounds: every device writes one document and syncs, `parallel` at once.
        var throughput = (front: Samples(), lighttpd: Samples())
        var cpu = (front: Samples(), lighttpd: Samples())
        var own = (front: Samples(), lighttpd: Samples())
        for round in 0..<bench.rounds {
            let order = round % 2 == 0 ? [0, 1] : [1, 0]
            for index in order {
                let side = sides[index]
                let commands = side.homes.enumerated().map { number, device in
                    syncAfterWriting(
                        home: device.home, uid: device.uid, note: "r\(round)-d\(number)",
                        environment: side.credentials(device.uid).merging(["CAIRN_SYNC_RETRY": "0.5,1,2,4"]) { $1 })
                }
                let server = ServerCPU(pid: side.pid)
                let (milliseconds, spent, ownSpent) = try server.spent {
                    let start = Stopwatch.now()
                    let failures = Self.runAll(commands, parallel: parallel)
                    guard failures.isEmpty else { throw Command.Failure(description: "serving, \(side.name): \(failures[0])") }
                    return Stopwatch.now() - start
                }
                let perSecond = Double(commands.count) / (milliseconds / 1_000)
                if index == 0 {
                    throughput.front.append(perSecond)
                    cpu.front.append(spent / Double(commands.count))
                    own.front.append(ownSpent / Double(commands.count))
                } else {
                    throughput.lighttpd.append(perSecond)
                    cpu.lighttpd.append(spent / Double(commands.count))
                    own.lighttpd.append(ownSpent / Double(commands.count))
                }
            }
        }
        let ratio = cpu.front.median / cpu.lighttpd.median
        var rows: [(String, String, String)] = [
            (
                "syncs a second: \(users * 2) devices of \(users) users, each writing a document and syncing, \(parallel) at once",
                throughput.front.summary, throughput.lighttpd.summary
            ),
            ("server CPU per sync (ms): the server and every process it ran", cpu.front.summary, cpu.lighttpd.summary),
            ("of which the server's own process (ms)", own.front.summary, own.lighttpd.summary),
            (
                "server CPU per sync, cairn server run ÷ lighttpd (target ≤ 1.10×)",
                Samples.format(ratio) + "× (" + (ratio <= 1.10 ? "met" : "**not met**") + ")", "–"
            ),
            (
                "one token verified, its key set held (µs, median of 5 × 2,000)", Samples.format(try verificationMicroseconds(issuer)),
                "– (passwords)"
            ),
        ]
        front.stop()
        rows += try loadRun(in: work + "/load", issuer: issuer)
        return rows
    }

    /// `cairn put` of a note, then `cairn sync`, as one shell line for the pool.
    func syncAfterWriting(home: String, uid: String, note: String, environment: [String: String]) -> Command {
        let put = "printf '{\"n\":\"%s\"}' '\(note)' | '\(bench.cairn)' --home '\(home)' put users/\(uid)/notes/\(note)"
        let sync = "'\(bench.cairn)' --home '\(home)' sync -q"
        return Command("/bin/sh", ["-c", put + " && " + sync], environment: bench.environment.merging(environment) { $1 })
    }

    /// The median time of one verification, in µs: a token verified 2,000 times, five times.
    func verificationMicroseconds(_ issuer: TestIssuer) throws -> Double {
        let token = try issuer.token("u1")
        let timing = Mutex<Samples>(Samples())
        let failed = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let verifier = try await TokenVerifier.start(
                    IdentityOptions(
                        issuer: TestIssuer.issuer, audience: TestIssuer.audience,
                        keySet: .file(issuer.keySet)))
                for _ in 0..<5 {
                    let start = Stopwatch.now()
                    for _ in 0..<2_000 { _ = try await verifier.verify(token).get() }
                    let perCall = (Stopwatch.now() - start) * 1_000 / 2_000
                    timing.withLock { $0.append(perCall) }
                }
            } catch {
                failed.withLock { $0 = "\(error)" }
            }
            done.signal()
        }
        done.wait()
        if let failure = failed.withLock({ $0 }) { throw Command.Failure(description: "token verification: \(failure)") }
        return timing.withLock { $0.median }
    }

    /// Many devices of many users at once on `cairn server run`, its backends bounded: each
    /// writes a note and syncs, `loadSyncs` times, retrying what the server was too busy for;
    /// then every device syncs twice more. Every note a sync acknowledged must be on the server.
    func loadRun(in folder: String, issuer: TestIssuer) throws -> [(String, String, String)] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let uids = (1...loadUsers).map { "load\($0)" }
        var tokens: [String: String] = [:]
        for uid in uids { tokens[uid] = try issuer.token(uid) }
        let front = try FrontProcess(cairn: bench.cairn, folder: folder + "/repos", issuer: issuer, log: folder + "/front.log")
        defer { front.stop() }
        let url = { (uid: String) in "http://\(uid)@127.0.0.1:\(front.port)/git/\(uid).git" }
        var devices: [(home: String, uid: String)] = []
        for uid in uids {
            for device in ["a", "b"] {
                let home = folder + "/\(uid)-\(device)"
                try bench.cairnCommand(home: home, ["init", uid, "--remote", url(uid)]).run()
                devices.append((home, uid))
            }
        }
        let retries = "0.2,0.5,1,2,4,8"
        let everyDevice = devices
        let server = ServerCPU(pid: front.pid)
        let acknowledged = Mutex<[(uid: String, note: String)]>([])
        let (milliseconds, spent, _) = try server.spent {
            let start = Stopwatch.now()
            for round in 0..<loadSyncs {
                let commands = devices.enumerated().map { number, device in
                    syncAfterWriting(
                        home: device.home, uid: device.uid, note: "load-r\(round)-d\(number)",
                        environment: ["CAIRN_TOKEN": tokens[device.uid]!, "CAIRN_SYNC_RETRY": retries])
                }
                let failures = Self.runAll(commands, parallel: loadParallel) { index in
                    acknowledged.withLock { $0.append((everyDevice[index].uid, "load-r\(round)-d\(index)")) }
                }
                if !failures.isEmpty {
                    say("  load run, round \(round): \(failures.count) syncs failed after their retries, left for the next")
                }
            }
            return Stopwatch.now() - start
        }
        let syncs = devices.count * loadSyncs
        // Every device syncs twice more, one at a time; then the server holds every write.
        for _ in 0..<2 {
            for device in devices {
                try bench.cairnCommand(
                    home: device.home, ["sync", "-q"], ["CAIRN_TOKEN": tokens[device.uid]!, "CAIRN_SYNC_RETRY": retries]
                ).run()
            }
        }
        var lost = 0
        for (uid, note) in acknowledged.withLock({ $0 }) {
            let shown = try? bench.gitCommand(folder + "/repos/\(uid).git", ["cat-file", "-e", "main:users/\(uid)/notes/\(note).json"])
                .run()
            if shown == nil { lost += 1 }
        }
        let busy = (try? String(contentsOfFile: folder + "/front.log", encoding: .utf8))?.components(separatedBy: "status=503").count ?? 1
        let acknowledgedCount = acknowledged.withLock { $0.count }
        return [
            (
                "load run: \(devices.count) devices of \(loadUsers) users, \(loadSyncs) writes and syncs each, \(loadParallel) at once: syncs a second",
                Samples.format(Double(syncs) / (milliseconds / 1_000)), "–"
            ),
            ("load run: server CPU per sync (ms)", Samples.format(spent / Double(syncs)), "–"),
            ("load run: requests answered 503 and retried", (busy - 1).formatted(), "–"),
            ("load run: writes acknowledged by a sync / lost", "\(acknowledgedCount.formatted()) / \(lost)", "–"),
        ]
    }

    /// Runs `commands`, `parallel` at once; the failures, each in one line. `succeeded` is told
    /// the index of each command that ended well.
    static func runAll(_ commands: [Command], parallel: Int, succeeded: @escaping @Sendable (Int) -> Void = { _ in }) -> [String] {
        let slots = DispatchSemaphore(value: parallel)
        let group = DispatchGroup()
        let failures = Mutex<[String]>([])
        for (index, command) in commands.enumerated() {
            slots.wait()
            DispatchQueue.global().async(group: group) {
                defer { slots.signal() }
                do {
                    try command.run()
                    succeeded(index)
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        group.wait()
        return failures.withLock { $0 }
    }
}

/// `cairn server run` for the benchmark, on a free port of 127.0.0.1, its log in a file.
final class FrontProcess {
    let port: Int
    let pid: Int32
    private let process: ChildProcess

    init(cairn: String, folder: String, issuer: TestIssuer, log: String, arguments: [String] = [], port: Int = 0) throws {
        let output = log + ".out"
        for file in [log, output] { _ = FileManager.default.createFile(atPath: file, contents: nil) }
        process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: cairn)
        process.arguments =
            [
                "server", "run", folder, "--issuer", TestIssuer.issuer, "--audience", TestIssuer.audience,
                "--jwks", issuer.keySet, "--listen", "127.0.0.1:\(port)", "--metrics", "127.0.0.1:0",
            ] + arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        try process.run()
        var said = ""
        for _ in 0..<1_500 where !said.contains("\n") {
            usleep(20_000)
            said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        }
        guard let found = said.firstMatch(of: /127\.0\.0\.1:([0-9]+)/), let port = Int(found.output.1) else {
            process.send(SIGKILL)
            throw Command.Failure(description: "cairn server run did not start: \(said)")
        }
        self.port = port
        pid = process.processIdentifier
    }

    /// Kills it at once (SIGKILL), as a machine that fails.
    func kill() {
        process.send(SIGKILL)
        process.waitUntilExit()
    }

    func stop() {
        guard process.isRunning else { return }
        process.send(SIGTERM)
        for _ in 0..<500 where process.isRunning { usleep(10_000) }
        if process.isRunning { process.send(SIGKILL) }
        process.waitUntilExit()
    }
}
