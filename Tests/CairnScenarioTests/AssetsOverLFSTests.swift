import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Assets through a real Git LFS server (giftless behind lighttpd, the per-user passwords of
/// the git remote, ``LFSGitServer``), with the repositories made by `cairn server init`: a
/// recording is uploaded by the batch API before its commit is pushed, plain git-lfs in a
/// clone of the remote fetches it, another device downloads it when it plays it, and clearing
/// the field deletes it from the server's storage (the post-receive hook) and the devices. An
/// upload the server cannot take pushes no commit; the next sync sends both.
@Suite(.serialized, .historiesVerified) struct AssetsOverLFSTests {
    static let passwords = ["u1": "p@ss-1", "u2": "p@ss-2"]
    static let session = "users/u1/readingSessions/s1"

    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    /// `cairn server init` repositories for u1 and u2 (bonfire), their asset storage set to
    /// giftless's folders, served with their LFS endpoints.
    final class Served {
        let folder = TemporaryFolder("cairn-lfs-assets")
        var server: LFSGitServer
        var root: String { folder.path + "/repos" }

        init() throws {
            let root = folder.path + "/repos"
            let created = try runBounded(CLI.executable, ["server", "init", root, "u1", "u2", "--schema", "bonfire"])
            guard created.status == 0 else { throw SetupError(description: "cairn server init failed: \(created.stderr)") }
            server = try LFSGitServer(root: root, users: AssetsOverLFSTests.passwords)
            for uid in ["u1", "u2"] {
                let storage = root + "/lfs/git/" + uid
                let set = try runBounded("/usr/bin/git", ["--git-dir", root + "/\(uid).git", "config", "cairn.lfsStorage", storage])
                guard set.status == 0 else { throw SetupError(description: "git config failed: \(set.stderr)") }
            }
        }

        /// Stops the servers and starts them again on the same repositories and storage (a
        /// new port).
        func restart() throws {
            server.stop()
            server = try LFSGitServer(root: root, users: AssetsOverLFSTests.passwords)
        }

        func url(_ uid: String = "u1") -> String { server.url(for: uid, user: uid) }

        /// The commit the server's `main` of `uid` points at ("" when it has none).
        func main(_ uid: String = "u1") throws -> String {
            try runBounded("/usr/bin/git", ["--git-dir", root + "/\(uid).git", "rev-parse", "--verify", "-q", "refs/heads/main"])
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// A device: a home of its own, the password in `CAIRN_PASSWORD`, no network retries.
    struct Device {
        let cli = CLI()

        @discardableResult
        func callAsFunction(_ arguments: String..., input: String? = nil) throws -> ProcessResult {
            try runBounded(
                CLI.executable, ["--home", cli.home] + arguments, input: input,
                environment: ["CAIRN_PASSWORD": AssetsOverLFSTests.passwords["u1"]!])
        }

        /// The command run where libcurl cannot be loaded: each of its files on the machine
        /// covered by an empty one, in a mount namespace of the command's own.
        func withoutLibcurl(_ arguments: String..., environment: [String: String] = [:]) throws -> ProcessResult {
            let hide =
                #"for f in /usr/lib/*/libcurl*.so* /lib/*/libcurl*.so*; do [ -f "$f" ] && [ ! -L "$f" ] && mount --bind /dev/null "$f"; done; exec "$@""#
            return try runBounded(
                "/usr/bin/unshare", ["--mount", "/bin/sh", "-c", hide, "sh", CLI.executable, "--home", cli.home] + arguments,
                environment: environment.merging(["CAIRN_PASSWORD": AssetsOverLFSTests.passwords["u1"]!]) { $1 })
        }

        func objects() -> [String] {
            (FileManager.default.enumerator(atPath: cli.home + "/u1/.git/lfs/objects")?.allObjects as? [String] ?? [])
                .filter { $0.count > 60 }
        }
    }

    /// `count` random bytes in the file `path`; the bytes and their SHA-256.
    static func recording(at path: String, _ count: Int = 400_000) throws -> (bytes: Data, oid: String) {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: path))
        let oid = String(try runBounded("/usr/bin/sha256sum", [path]).stdout.prefix(64))
        return (bytes, oid)
    }

    static let sessionJSON = #"{"book":"starry-forest","startedAt":"2026-11-20T18:00:00Z","durationSeconds":600}"#

    @Test(.runningTime(atMost: .seconds(600)))
    func aRecordingGoesUpByTheBatchAPIIsFetchedByGitLFSAndIsDeletedFromTheServer() throws {
        let served = try Served()
        defer { served.server.stop() }
        let phone = Device()
        let audio = try Self.recording(at: phone.cli.scratch("session.m4a"))
        #expect(try phone("init", "u1", "--schema", "bonfire", "--remote", served.url()).status == 0)
        let put = try phone("put", Self.session, "--asset", "audioAsset=" + phone.cli.scratch("session.m4a"), input: Self.sessionJSON)
        #expect(put.status == 0, "\(put.stderr)")
        let synced = try phone("sync")
        #expect(synced.status == 0, "\(synced.stderr)\n\(served.server.errorLog)")
        let stored = served.server.objectPath(uid: "u1", oid: audio.oid)
        #expect(FileManager.default.contents(atPath: stored) == audio.bytes, "\(served.server.errorLog)")

        // Plain git and git-lfs, in a clone of the remote, fetch the same object.
        let machine = TemporaryFolder("cairn-lfs-assets-home")
        let environment = ["HOME": machine.path, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"]
        let remote = served.server.url(for: "u1", user: "u1", password: Self.passwords["u1"])
        let plain = machine.path + "/plain"
        for arguments in [["lfs", "install", "--skip-repo"], ["clone", "--quiet", remote, plain], ["-C", plain, "lfs", "pull"]] {
            let ran = try runBounded("/usr/bin/git", arguments, environment: environment)
            #expect(ran.status == 0, "git \(arguments.joined(separator: " ")): \(ran.stderr)")
        }
        #expect(FileManager.default.contents(atPath: plain + "/.cairn/assets/\(Self.session)/.audioAsset") == audio.bytes)

        // The tablet restores the store without it, and downloads it when it plays it.
        let tablet = Device()
        #expect(try tablet("clone", served.url()).status == 0)
        #expect(tablet.objects().isEmpty)
        let played = try tablet("--user", "u1", "asset", "get", Self.session, "audioAsset", "-o", tablet.cli.scratch("played.m4a"))
        #expect(played.status == 0, "\(played.stderr)\n\(served.server.errorLog)")
        #expect(FileManager.default.contents(atPath: tablet.cli.scratch("played.m4a")) == audio.bytes)

        // Cleared and synced: gone from the server's storage and both devices.
        #expect(try phone("asset", "rm", Self.session, "audioAsset").status == 0)
        let deleted = try phone("sync")
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stored), "the post-receive hook removed the object")
        #expect(phone.objects().isEmpty)
        #expect(try tablet("--user", "u1", "sync").status == 0)
        #expect(tablet.objects().isEmpty)
        let old = try tablet("--user", "u1", "asset", "get", Self.session, "audioAsset", "--at", "HEAD~1")
        #expect(old.status != 0 && old.stderr.contains("was deleted"), "\(old.stderr)")
    }

    @Test(.runningTime(atMost: .seconds(600)))
    func anUploadTheServerCannotTakePushesNoCommitAndTheNextSyncSendsBoth() throws {
        let served = try Served()
        defer { served.server.stop() }
        let phone = Device()
        let audio = try Self.recording(at: phone.cli.scratch("session.m4a"))
        #expect(try phone("init", "u1", "--schema", "bonfire", "--remote", served.url()).status == 0)
        #expect(try phone("sync").status == 0)
        let before = try served.main()
        #expect(
            try phone("put", Self.session, "--asset", "audioAsset=" + phone.cli.scratch("session.m4a"), input: Self.sessionJSON).status == 0
        )

        // The LFS server goes away (the git server stays): the upload fails, nothing is pushed.
        served.server.lfs.stop()
        let failed = try phone("sync")
        #expect(failed.status != 0)
        #expect(failed.stderr.split(separator: "\n").count == 1, "\(failed.stderr)")
        #expect(failed.stderr.contains("LFS batch request"), "\(failed.stderr)")
        #expect(try served.main() == before, "no commit reached the server without its asset")
        #expect(!FileManager.default.fileExists(atPath: served.server.objectPath(uid: "u1", oid: audio.oid)))

        // Back up: the next sync uploads the recording whole, then pushes.
        try served.restart()
        #expect(try phone("remote", "set", served.url()).status == 0)
        let resent = try phone("sync")
        #expect(resent.status == 0, "\(resent.stderr)\n\(served.server.errorLog)")
        #expect(try served.main() != before)
        #expect(FileManager.default.contents(atPath: served.server.objectPath(uid: "u1", oid: audio.oid)) == audio.bytes)
    }

    /// libcurl is loaded only for a transfer to the LFS server: without it, the tool starts,
    /// syncs documents and restores a store, and a sync with an asset to upload stops with one
    /// line saying what to install, pushing nothing; with it back, the next sync sends both.
    @Test(.runningTime(atMost: .seconds(600)))
    func withoutLibcurlDocumentsStillSyncAndAnAssetWaitsWithOneLineSayingWhatToInstall() throws {
        let served = try Served()
        defer { served.server.stop() }
        let phone = Device()
        let audio = try Self.recording(at: phone.cli.scratch("session.m4a"))
        #expect(try phone("init", "u1", "--schema", "bonfire", "--remote", served.url()).status == 0)
        #expect(try phone("put", "users/u1/readingSessions/s0", input: Self.sessionJSON).status == 0)
        let documents = try phone.withoutLibcurl("sync")
        #expect(documents.status == 0, "\(documents.stderr)")
        let before = try served.main()
        #expect(!before.isEmpty, "the document's commit reached the server")
        let tablet = Device()
        let restored = try tablet.withoutLibcurl("clone", served.url())
        #expect(restored.status == 0, "\(restored.stderr)")

        #expect(
            try phone("put", Self.session, "--asset", "audioAsset=" + phone.cli.scratch("session.m4a"), input: Self.sessionJSON).status == 0
        )
        // Not a network failure: no retry, exit status 1 (not 75, "try again later").
        let started = Date()
        let failed = try phone.withoutLibcurl("sync", environment: ["CAIRN_SYNC_RETRY": "5,30,300"])
        #expect(Date().timeIntervalSince(started) < 5, "no retry of a library that is missing")
        #expect(failed.status == 1)
        #expect(failed.stderr.split(separator: "\n").count == 1, "\(failed.stderr)")
        #expect(failed.stderr.contains("libcurl") && failed.stderr.contains("apt-get install libcurl4"), "\(failed.stderr)")
        #expect(try served.main() == before, "no commit reached the server without its asset")

        let resent = try phone("sync")
        #expect(resent.status == 0, "\(resent.stderr)\n\(served.server.errorLog)")
        #expect(try served.main() != before)
        #expect(FileManager.default.contents(atPath: served.server.objectPath(uid: "u1", oid: audio.oid)) == audio.bytes)
    }
}
