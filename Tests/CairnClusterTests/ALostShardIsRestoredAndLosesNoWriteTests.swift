import CairnCluster
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The drill: while devices sync, a shard's process is killed and its folder deleted. It is
/// restored from its last backup in the object store — older than some pushes the devices
/// were told succeeded — and starts again on its address. The devices push again what it
/// lacks, its history only moves forward, and every acknowledged write is on it.
@Suite(.serialized, .historiesVerified) struct ALostShardIsRestoredAndLosesNoWriteTests {
    let folder = TemporaryFolder("cairn-drill")
    let provider: IdentityProvider

    init() throws { provider = try IdentityProvider(project: "drill-tests") }

    @Test func aShardRestoredFromAnOlderBackupLosesNoAcknowledgedWrite() throws {
        let store = try SeaweedFSServer()
        let shardFolder = folder.path + "/shard"
        var served = try ServedFront(folder: shardFolder, provider: provider, arguments: ["--schema", "life-in-uk"])
        let (port, metricsPort) = (served.port, served.metricsPort)
        let devices = (1...6).flatMap { user in ["a", "b"].map { (device: "\($0)\(user)", uid: "u\(user)") } }
        let tokens = try Dictionary(uniqueKeysWithValues: (1...6).map { ("u\($0)", try provider.token(for: "u\($0)")) })
        let acknowledged = Mutex<[(uid: String, note: String)]>([])
        let base = folder.path
        @Sendable func cairn(_ device: String, _ uid: String, _ arguments: [String], input: String? = nil) throws -> ProcessResult {
            try runBounded(
                CLI.executable, ["--home", base + "/" + device] + arguments, input: input,
                environment: ["CAIRN_SYNC_RETRY": "0.5,1,2,4", "CAIRN_TOKEN": tokens[uid]!], limit: 120)
        }
        /// Every device writes a note and syncs, four at once; an acknowledged note is kept.
        @Sendable func round(_ name: String) {
            DispatchQueue.concurrentPerform(iterations: 4) { lane in
                for (device, uid) in devices.enumerated().filter({ $0.offset % 4 == lane }).map(\.element) {
                    let note = "\(name)-\(device)"
                    guard (try? cairn(device, uid, ["put", "users/\(uid)/notes/\(note)"], input: #"{"n": "\#(note)"}"#).status) == 0 else {
                        continue
                    }
                    if (try? cairn(device, uid, ["sync"]).status) == 0 { acknowledged.withLock { $0.append((uid, note)) } }
                }
            }
        }
        for (device, uid) in devices {
            let url = "http://\(uid)@127.0.0.1:\(port)/git/\(uid).git"
            if device.hasPrefix("a") {
                #expect(try cairn(device, uid, ["init", uid, "--schema", "life-in-uk", "--remote", url]).status == 0)
                let first = try cairn(device, uid, ["sync"])
                #expect(first.status == 0, "\(device): \(first.stderr)")
            } else {
                let cloned = try cairn(device, uid, ["clone", url])
                #expect(cloned.status == 0, "\(device): \(cloned.stderr)")
            }
        }
        round("r1")
        let backup = try runBounded(
            CLI.executable, ["server", "backup", shardFolder, "--to", "s3://drill/shard"], environment: store.environment, limit: 120)
        #expect(backup.status == 0, "\(backup.stderr)")
        round("r2")
        let afterBackup = acknowledged.withLock { $0.filter { $0.note.hasPrefix("r2") }.count }
        #expect(afterBackup > 0)

        // The shard dies in the middle of a round, and its disk with it.
        let load = Thread { round("r3") }
        load.start()
        usleep(300_000)
        served.process.send(SIGKILL)
        served.process.waitUntilExit()
        try FileManager.default.removeItem(atPath: shardFolder)
        let restore = try runBounded(
            CLI.executable, ["server", "restore", shardFolder, "--from", "s3://drill/shard", "--schema", "life-in-uk"],
            environment: store.environment, limit: 120)
        #expect(restore.status == 0, "\(restore.stderr)")
        var lacked = 0
        for (uid, note) in acknowledged.withLock({ $0 }) {
            let found = try runBounded(
                "/usr/bin/git", ["--git-dir", shardFolder + "/\(uid).git", "cat-file", "-e", "main:users/\(uid)/notes/\(note).json"])
            if found.status != 0 { lacked += 1 }
        }
        #expect(lacked >= afterBackup, "the backup is older than the pushes after it")
        served = try ServedFront(
            folder: shardFolder, provider: provider, arguments: ["--schema", "life-in-uk"], port: port, metricsPort: metricsPort)
        defer { served.stop() }
        while load.isExecuting || !load.isFinished { usleep(50_000) }

        // Every device syncs again: they push what the restored shard lacks.
        for (device, uid) in devices {
            let synced = try cairn(device, uid, ["sync"])
            #expect(synced.status == 0, "\(device): \(synced.stderr)")
        }
        let all = acknowledged.withLock { $0 }
        var lost: [String] = []
        for (uid, note) in all {
            let found = try runBounded(
                "/usr/bin/git", ["--git-dir", shardFolder + "/\(uid).git", "cat-file", "-e", "main:users/\(uid)/notes/\(note).json"])
            if found.status != 0 { lost.append("\(uid)/\(note)") }
        }
        #expect(lost.isEmpty, "lost: \(lost)")
        #expect(all.count >= devices.count * 2)
        for user in 1...6 {
            #expect(try runBounded(CLI.executable, ["verify", "--git-dir", shardFolder + "/u\(user).git"]).status == 0)
        }
    }
}
