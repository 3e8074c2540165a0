import CairnCluster
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// `cairn server backup` writes each user's new history as a git bundle, with a manifest, into
/// an object store or a folder; `cairn server restore` rebuilds the repositories, with their
/// hooks, and refuses by name what is not whole.
@Suite(.serialized, .historiesVerified) struct BackupsBringAShardBackTests {
    let folder = TemporaryFolder("cairn-backups")
    var server: String { folder.path + "/server" }

    /// `cairn ARGS…` with retries off.
    @discardableResult
    func cairn(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
        try runBounded(
            CLI.executable, arguments, input: input, environment: ["CAIRN_SYNC_RETRY": "none"].merging(environment) { $1 }, limit: 120)
    }

    /// A device of `uid` on the server's folder writes `note` and syncs.
    func write(_ uid: String, _ note: String) throws {
        let home = folder.path + "/device-" + uid
        if !FileManager.default.fileExists(atPath: home + "/" + uid) {
            #expect(try cairn(["--home", home, "init", uid, "--remote", server + "/\(uid).git"]).status == 0)
        }
        #expect(try cairn(["--home", home, "put", "users/\(uid)/notes/\(note)"], input: #"{"n": "\#(note)"}"#).status == 0)
        let synced = try cairn(["--home", home, "sync"])
        #expect(synced.status == 0, "\(synced.stderr)")
    }

    func head(_ repository: String) throws -> String {
        try runBounded("/usr/bin/git", ["--git-dir", repository, "rev-parse", "main"]).stdout
    }

    @Test func aBackupWritesOnlyWhatIsNewAndARestoreRebuildsEveryRepository() throws {
        #expect(try cairn(["server", "init", server, "u1", "u2", "u3"]).status == 0)
        try write("u1", "a")
        try write("u2", "b")
        let target = folder.path + "/backups"
        let first = try cairn(["server", "backup", server, "--to", target])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Backed up 3 users") && first.stdout.contains("2 with something new"), "\(first.stdout)")
        let again = try cairn(["server", "backup", server, "--to", target])
        #expect(again.stdout.contains("nothing new"), "\(again.stdout)")
        try write("u1", "c")
        let third = try cairn(["server", "backup", server, "--to", target])
        #expect(third.stdout.contains("1 with something new"), "\(third.stdout)")
        let manifest = try JSONDecoder().decode(
            BackupManifest.self, from: Data(contentsOf: URL(fileURLWithPath: target + "/manifest.json")))
        #expect(manifest.users["u1"]?.bundles.map(\.name) == ["bundles/u1/000001.bundle", "bundles/u1/000002.bundle"])
        #expect(manifest.users["u2"]?.bundles.count == 1)
        #expect(manifest.users["u3"] == nil, "a repository with no commit has nothing to back up")

        let restored = folder.path + "/restored"
        let restore = try cairn(["server", "restore", restored, "--from", target])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(try head(restored + "/u1.git") == head(server + "/u1.git"))
        #expect(try head(restored + "/u2.git") == head(server + "/u2.git"))
        #expect(FileManager.default.isExecutableFile(atPath: restored + "/u1.git/hooks/pre-receive"), "made with Cairn's hooks")
        #expect(try cairn(["verify", "--git-dir", restored + "/u1.git"]).status == 0)
        // A push to the restored repository goes through its hook, as to the first.
        let device = folder.path + "/device-u1"
        #expect(try cairn(["--home", device, "remote", "set", restored + "/u1.git"]).status == 0)
        try write("u1", "d")

        // A folder that holds repositories is not restored into, unless forced.
        let refused = try cairn(["server", "restore", restored, "--from", target])
        #expect(
            refused.status == 1 && refused.stderr.contains("already holds 2 repositories") && refused.stderr.contains("--force"),
            "\(refused.stderr)")
        #expect(try head(restored + "/u1.git") != head(server + "/u1.git"), "nothing was replaced")
        let forced = try cairn(["server", "restore", restored, "--from", target, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try head(restored + "/u1.git") == head(server + "/u1.git"))
        #expect(FileManager.default.fileExists(atPath: restored + "/.cairn-shard/replaced/u1.git"), "the replaced one kept aside")
    }

    @Test func aBundleCutShortOrAManifestThatDisagreesLeavesThatUserOutByName() throws {
        #expect(try cairn(["server", "init", server, "u1", "u2", "u3"]).status == 0)
        for uid in ["u1", "u2", "u3"] { try write(uid, "a") }
        let target = folder.path + "/backups"
        #expect(try cairn(["server", "backup", server, "--to", target]).status == 0)
        // u1's bundle cut short in the store; u2's refs changed in the manifest.
        let bundle = target + "/bundles/u1/000001.bundle"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: bundle))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: bundle))
        let manifestFile = target + "/manifest.json"
        var manifest = try JSONDecoder().decode(BackupManifest.self, from: Data(contentsOf: URL(fileURLWithPath: manifestFile)))
        manifest.users["u2"]?.refs["refs/heads/main"] = String(repeating: "1", count: 40)
        try JSONEncoder().encode(manifest).write(to: URL(fileURLWithPath: manifestFile))

        let restored = folder.path + "/restored"
        let restore = try cairn(["server", "restore", restored, "--from", target])
        #expect(restore.status == 1)
        let lines = restore.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("user u1 was not restored") && $0.contains("cut short") }, "\(restore.stderr)")
        #expect(lines.contains { $0.contains("user u2 was not restored") && $0.contains("refs/heads/main") }, "\(restore.stderr)")
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: restored)).filter { $0.hasSuffix(".git") } == ["u3.git"])
        #expect(
            try !FileManager.default.contentsOfDirectory(atPath: restored).contains { $0.hasPrefix(".rebuilding") }, "nothing half made")

        let nothing = try cairn(["server", "restore", folder.path + "/other", "--from", folder.path + "/no-backup"])
        #expect(nothing.status == 1 && nothing.stderr.contains("no manifest.json"), "\(nothing.stderr)")
        let relative = try cairn(["server", "backup", server, "--to", "backups"])
        #expect(relative.status == 1 && relative.stderr.contains("s3://BUCKET/PREFIX"), "\(relative.stderr)")
    }

    /// A target with no room left: one line that says so, and the backup before it is whole.
    @Test(.enabled(if: TinyDisk.canMount)) func aFullTargetIsOneLineAndLeavesTheLastBackupWhole() throws {
        let disk = try TinyDisk(kilobytes: 96)
        defer { disk.unmount() }
        #expect(try cairn(["server", "init", server, "u1"]).status == 0)
        try write("u1", "a")
        #expect(try cairn(["server", "backup", server, "--to", disk.path]).status == 0)
        let before = try String(contentsOfFile: disk.path + "/manifest.json", encoding: .utf8)
        // A note of 300 KB of random digits: its bundle does not fit.
        let noise = (0..<150_000).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined()
        let home = folder.path + "/device-u1"
        #expect(try cairn(["--home", home, "put", "users/u1/notes/big"], input: #"{"n": "\#(noise)"}"#).status == 0)
        #expect(try cairn(["--home", home, "sync"]).status == 0)
        let full = try cairn(["server", "backup", server, "--to", disk.path])
        #expect(
            full.status == 1 && full.stderr.contains("is full") && full.stderr.split(separator: "\n").count == 1,
            "\(full.status) \(full.stdout) \(full.stderr)")
        #expect(
            try String(contentsOfFile: disk.path + "/manifest.json", encoding: .utf8) == before, "the manifest still names the last backup")
    }

    /// The same through SeaweedFS's S3 gateway (three volume servers, every file twice), and a
    /// key the store refuses.
    @Test func aBackupGoesThroughAnS3ObjectStoreAndRefusedCredentialsAreOneLine() throws {
        let store = try SeaweedFSServer()
        #expect(try cairn(["server", "init", server, "u1", "u2"]).status == 0)
        try write("u1", "a")
        try write("u2", "b")
        let backup = try cairn(["server", "backup", server, "--to", "s3://cairn-backups/shard1"], environment: store.environment)
        #expect(backup.status == 0, "\(backup.stderr)")
        #expect(try Set(store.list("cairn-backups/shard1")) == ["manifest.json", "bundles/u1/000001.bundle", "bundles/u2/000001.bundle"])
        let restored = folder.path + "/restored"
        let restore = try cairn(["server", "restore", restored, "--from", "s3://cairn-backups/shard1"], environment: store.environment)
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(try head(restored + "/u2.git") == head(server + "/u2.git"))

        var wrong = store.environment
        wrong["AWS_SECRET_ACCESS_KEY"] = "not-the-key"
        try write("u1", "c")
        let before = try store.read("cairn-backups/shard1/manifest.json")
        let refused = try cairn(["server", "backup", server, "--to", "s3://cairn-backups/shard1"], environment: wrong)
        #expect(
            refused.status == 1 && refused.stderr.contains("refused the credentials") && refused.stderr.split(separator: "\n").count == 1,
            "\(refused.stderr)")
        #expect(try store.read("cairn-backups/shard1/manifest.json") == before, "the backup is as it was")
        #expect(
            try cairn(["server", "backup", server, "--to", "s3://cairn-backups/shard1"], environment: store.environment).stdout
                .contains("1 with something new"))
    }
}

/// A tmpfs of a few kilobytes, mounted for a test (as root), to be a backup target that fills.
struct TinyDisk {
    let path: String

    static let canMount: Bool = {
        guard let disk = try? TinyDisk(kilobytes: 16) else { return false }
        disk.unmount()
        return true
    }()

    init(kilobytes: Int) throws {
        path = FileManager.default.temporaryDirectory.path + "/cairn-tiny-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let mounted = try runBounded("/bin/mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path])
        guard mounted.status == 0 else {
            try? FileManager.default.removeItem(atPath: path)
            throw GitServerStartError(description: "cannot mount a tmpfs: \(mounted.stderr)")
        }
    }

    func unmount() {
        _ = try? runBounded("/bin/umount", [path])
        try? FileManager.default.removeItem(atPath: path)
    }
}
