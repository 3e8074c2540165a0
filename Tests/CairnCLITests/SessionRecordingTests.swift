import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Bonfire's recordings (seed 003: a reading session's `audioAsset`), and assets of an app's
/// own set, through a path remote: recorded on the phone, uploaded before the commit that
/// points to it, downloaded by the tablet only when it is played, and deleted — from the
/// server and both devices — once the field is cleared and the devices sync. History keeps
/// the pointer only.
@Suite(.historiesVerified) struct SessionRecordingTests {
    let cli = CLI()
    var tablet: String { cli.scratch("tablet") }
    var server: String { cli.scratch("server") }
    var remote: String { server + "/u1.git" }
    static let session = "users/u1/readingSessions/s1"

    @discardableResult
    func tablet(_ arguments: String..., input: String? = nil) throws -> ProcessResult {
        try runProcess(CLI.executable, ["--home", tablet, "--user", "u1"] + arguments, input: input)
    }

    /// `count` random bytes in a new file `name`; the bytes.
    func recording(_ name: String, _ count: Int = 300_000) throws -> Data {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: cli.scratch(name)))
        return bytes
    }

    /// Every file under `folder` whose bytes contain `needle`.
    func files(under folder: String, containing needle: Data) -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            let path = folder + "/" + name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                let data = FileManager.default.contents(atPath: path), data.range(of: needle) != nil
            else { continue }
            found.append(name)
        }
        return found
    }

    /// The files of git-lfs's object folder `folder`.
    func objects(in folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { $0.count > 60 }
    }

    /// The phone's bonfire store on a new server repository, and a session recorded with it.
    func phoneWithARecordedSession(_ audio: String) throws {
        #expect(try cli("server", "init", server, "u1", "--schema", "bonfire").status == 0)
        #expect(try cli("init", "u1", "--schema", "bonfire", "--remote", remote).status == 0)
        let put = try cli(
            "put", Self.session, "--asset", "audioAsset=" + cli.scratch(audio),
            input: #"{"book":"starry-forest","startedAt":"2026-11-20T18:00:00Z","durationSeconds":600}"#)
        #expect(put.status == 0, "\(put.stderr)")
    }

    @Test func aRecordingMadeOnThePhoneIsPlayedOnTheTabletThenDeletedEverywhere() throws {
        let audio = try recording("session.m4a")
        try phoneWithARecordedSession("session.m4a")
        let sent = try cli("sync")
        #expect(sent.status == 0, "\(sent.stderr)")
        // The server holds the bytes in git-lfs's layout; its repository holds the pointer.
        let stored = objects(in: remote + "/lfs/objects")
        #expect(stored.count == 1)
        #expect(FileManager.default.contents(atPath: remote + "/lfs/objects/" + (stored.first ?? "")) == audio)
        let pointer = try runProcess(
            "/usr/bin/git", ["--git-dir", remote, "cat-file", "-p", "main:.cairn/assets/\(Self.session)/.audioAsset"])
        #expect(pointer.stdout.hasPrefix("version https://git-lfs.github.com/spec/v1\noid sha256:"), "\(pointer.stderr)")
        #expect(pointer.stdout.hasSuffix("size 300000\n"))
        let attributes = try runProcess("/usr/bin/git", ["--git-dir", remote, "show", "main:.gitattributes"]).stdout
        #expect(attributes.contains(".cairn/assets/** filter=lfs diff=lfs merge=lfs -text"))

        // The tablet restores the store without the recording, and downloads it when played.
        #expect(try runProcess(CLI.executable, ["--home", tablet, "clone", remote]).status == 0)
        #expect(objects(in: tablet + "/u1/.git/lfs/objects").isEmpty, "a sync brings no asset")
        #expect(try tablet("asset", "ls").stdout.contains("audioAsset") && tablet("asset", "ls").stdout.hasSuffix("on the server\n"))
        let played = try tablet("asset", "get", Self.session, "audioAsset", "-o", cli.scratch("played.m4a"))
        #expect(played.status == 0, "\(played.stderr)")
        #expect(FileManager.default.contents(atPath: cli.scratch("played.m4a")) == audio)
        #expect(try tablet("asset", "ls").stdout.hasSuffix("here\n"))

        // A session is append-only: changing it is refused, clearing its recording is not.
        let changed = try cli(
            "put", Self.session, input: #"{"book":"starry-forest","startedAt":"2026-11-20T18:00:00Z","durationSeconds":601}"#)
        #expect(changed.status != 0 && changed.stderr.contains("append-only"))
        let cleared = try cli("asset", "rm", Self.session, "audioAsset")
        #expect(cleared.status == 0, "\(cleared.stderr)")
        #expect(try cli("get", Self.session).stdout.contains(#""audioAsset": null"#))
        #expect(try cli("sync").status == 0)
        #expect(try tablet("sync").status == 0)

        // The bytes are gone from the server and both devices; no file anywhere holds them.
        #expect(objects(in: remote + "/lfs/objects").isEmpty)
        #expect(objects(in: cli.home + "/u1/.git/lfs/objects").isEmpty)
        #expect(objects(in: tablet + "/u1/.git/lfs/objects").isEmpty)
        let slice = audio.subdata(in: 150_000..<150_064)
        for folder in [server, cli.home, tablet] {
            #expect(files(under: folder, containing: slice).isEmpty, "the recording's bytes are still under \(folder)")
        }
        // History keeps the pointer, and reading the old revision says the asset was deleted.
        let old = try tablet("asset", "get", Self.session, "audioAsset", "--at", "HEAD~1", "-o", cli.scratch("old.m4a"))
        #expect(old.status != 0)
        #expect(old.stderr.hasPrefix("cairn: the asset in audioAsset of \(Self.session) at HEAD~1 was deleted:"), "\(old.stderr)")
        #expect(old.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: cli.scratch("old.m4a")))
        let trees = try (
            cli.git("u1", "rev-parse", "HEAD^{tree}").stdout,
            runProcess("/usr/bin/git", ["-C", tablet + "/u1", "rev-parse", "HEAD^{tree}"]).stdout
        )
        #expect(trees.0 == trees.1)
    }

    @Test func anAssetOverItsLimitIsRefusedInOneLineWithNothingWritten() throws {
        // Bonfire's field takes 50 MiB: a sparse file one byte larger.
        let large = cli.scratch("large.m4a")
        #expect(FileManager.default.createFile(atPath: large, contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: large))
        try handle.truncate(atOffset: 52_428_801)
        try handle.close()
        #expect(try cli("init", "u1", "--schema", "bonfire").status == 0)
        let before = try cli.snapshot("u1")
        let refused = try cli(
            "put", Self.session, "--asset", "audioAsset=" + large,
            input: #"{"startedAt":"2026-11-20T18:00:00Z","durationSeconds":600}"#)
        #expect(refused.status != 0)
        #expect(
            refused.stderr
                == "cairn: \(large) is 52428801 bytes; audioAsset of \(Self.session) takes at most 52428800 bytes (x-cairn.assets maxBytes, else git config cairn.assetMaxBytes) — nothing was written\n"
        )
        #expect(try cli.snapshot("u1") == before)
        #expect(objects(in: cli.home + "/u1/.git/lfs/objects").isEmpty)
        #expect(try cli("status").stdout.contains("0 pending") || !cli("status").stdout.contains(Self.session))

        // A field without maxBytes takes the store's limit, cairn.assetMaxBytes.
        let set = try appSet()
        #expect(try cli("init", "u2", "--schema", set).status == 0)
        #expect(try runProcess("/usr/bin/git", ["-C", cli.home + "/u2", "config", "cairn.assetMaxBytes", "1000"]).status == 0)
        _ = try recording("photo.jpg", 1001)
        let photo = try cli(
            "--user", "u2", "put", "users/u2/responses/r1", "--asset", "photo=" + cli.scratch("photo.jpg"),
            input: #"{"answeredAt":"2026-11-20T18:00:00Z"}"#)
        #expect(photo.status != 0)
        #expect(photo.stderr.contains("takes at most 1000 bytes"), "\(photo.stderr)")
        #expect(try cli("--user", "u2", "get", "users/u2/responses/r1").status != 0)
    }

    @Test func theServerRefusesAPushThatPointsToAnAssetItDoesNotHave() throws {
        _ = try recording("session.m4a")
        try phoneWithARecordedSession("session.m4a")
        #expect(try cli("checkpoint").status == 0)
        #expect(try cli("sync").status == 0)
        // A second recording, committed, then pushed with plain git: no upload went first.
        _ = try recording("second.m4a")
        let second = try cli(
            "put", "users/u1/readingSessions/s2", "--asset", "audioAsset=" + cli.scratch("second.m4a"),
            input: #"{"startedAt":"2026-11-21T18:00:00Z","durationSeconds":300}"#)
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try cli("checkpoint").status == 0)
        let pushed = try cli.git("u1", "push", "origin", "main")
        #expect(pushed.status != 0)
        #expect(
            pushed.stderr.contains("points to the asset") && pushed.stderr.contains("which the server's asset storage does not have"),
            "\(pushed.stderr)")
        // A hand-made pointer that no document's field holds is refused too.
        let stray = cli.home + "/u1/.cairn/assets/users/u1/readingSessions/s9/.audioAsset"
        try FileManager.default.createDirectory(atPath: (stray as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "version https://git-lfs.github.com/spec/v1\noid sha256:\(String(repeating: "a", count: 64))\nsize 3\n".write(
            toFile: stray, atomically: true, encoding: .utf8)
        #expect(try cli.git("u1", "add", "-A").status == 0)
        #expect(try cli.git("u1", "commit", "-q", "-m", "A stray pointer").status == 0)
        HistoriesVerified.exemptHead(
            of: cli.home + "/u1", because: "a stray pointer committed with plain git stays in history under the commit that removes it")
        // (git-lfs, which installed its pre-push hook when git added the pointer, would
        // refuse the push first: its object is on no device.)
        let strayPush = try cli.git("u1", "-c", "lfs.allowincompletepush=true", "push", "origin", "main")
        #expect(
            strayPush.status != 0 && strayPush.stderr.contains("names an asset that no field of users/u1/readingSessions/s9 holds"),
            "\(strayPush.stderr)")
        // Cairn's sync makes the pointers again from the documents (the stray one goes),
        // uploads the second recording, then pushes.
        let synced = try cli("sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        let listed = try runProcess("/usr/bin/git", ["--git-dir", remote, "ls-tree", "-r", "--name-only", "main"]).stdout
        #expect(!listed.contains("s9") && listed.contains("readingSessions/s2/.audioAsset"), "\(listed)")
    }

    @Test func gitLFSsSmudgedRecordingInTheWorkingTreeIsNeverCommittedAsBytes() throws {
        let audio = try recording("session.m4a", 20_000)
        try phoneWithARecordedSession("session.m4a")
        #expect(try cli("checkpoint").status == 0)
        // git checks the pointer out again through git-lfs's filters: the file now holds the
        // recording itself, as in any git-lfs clone.
        let pointerFile = ".cairn/assets/\(Self.session)/.audioAsset"
        try FileManager.default.removeItem(atPath: cli.home + "/u1/" + pointerFile)
        let lfs = [
            "-c", "filter.lfs.smudge=git-lfs smudge -- %f", "-c", "filter.lfs.clean=git-lfs clean -- %f",
            "-c", "filter.lfs.process=git-lfs filter-process", "-c", "filter.lfs.required=true",
        ]
        let checkout = try runProcess("/usr/bin/git", ["-C", cli.home + "/u1"] + lfs + ["checkout", "--", pointerFile])
        #expect(checkout.status == 0, "\(checkout.stderr)")
        #expect(FileManager.default.contents(atPath: cli.home + "/u1/" + pointerFile) == audio)
        // Its time changes too (a copy, a backup restore): a scan reads it again.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: 60)],
            ofItemAtPath: cli.home + "/u1/" + pointerFile)
        // Cairn stages the pointer its document makes, whatever the file holds.
        let next = try cli("put", "users/u1/readingSessions/s2", input: #"{"startedAt":"2026-11-21T18:00:00Z","durationSeconds":60}"#)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(try cli("checkpoint", "--scan").status == 0)
        let committed = try cli.git("u1", "show", "HEAD:" + pointerFile).stdout
        #expect(committed.hasPrefix("version https://git-lfs.github.com/spec/v1\n") && committed.hasSuffix("size 20000\n"))
        let synced = try cli("sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        let status = try runProcess("/usr/bin/git", ["-C", cli.home + "/u1"] + lfs + ["status", "--porcelain"])
        #expect(status.stdout.isEmpty, "\(status.stdout)")
    }

    /// An app's own set (nobody here wrote it): photo answers whose later edit wins.
    func appSet() throws -> String {
        let folder = cli.scratch("photo-answers")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try #"""
        {
          "x-cairn": {"path": "users/{uid}/responses/{responseId}", "assets": {"photo": {}}},
          "x-merge": {"lww": "answeredAt"},
          "type": "object",
          "required": ["answeredAt"],
          "properties": {
            "answeredAt": {"type": "string", "format": "date-time"},
            "photo": {"type": ["object", "null"]}
          }
        }
        """#.write(toFile: folder + "/response.schema.json", atomically: true, encoding: .utf8)
        return folder
    }

    @Test func twoDevicesThatAttachDifferentPhotosKeepTheLaterOneAndDeleteTheOther() throws {
        let set = try appSet()
        #expect(try cli("server", "init", server, "u1", "--schema", set).status == 0)
        #expect(try cli("init", "u1", "--schema", set, "--remote", remote).status == 0)
        #expect(try cli("put", "users/u1/responses/r1", input: #"{"answeredAt":"2026-11-20T08:00:00Z"}"#).status == 0)
        #expect(try cli("sync").status == 0)
        #expect(try runProcess(CLI.executable, ["--home", tablet, "clone", remote]).status == 0)
        let early = try recording("early.jpg", 5_000)
        let late = try recording("late.jpg", 6_000)
        let phoneEdit = try cli(
            "put", "users/u1/responses/r1", "--asset", "photo=" + cli.scratch("early.jpg"), input: #"{"answeredAt":"2026-11-20T09:00:00Z"}"#
        )
        #expect(phoneEdit.status == 0, "\(phoneEdit.stderr)")
        #expect(
            try tablet(
                "put", "users/u1/responses/r1", "--asset", "photo=" + cli.scratch("late.jpg"),
                input: #"{"answeredAt":"2026-11-20T10:00:00Z"}"#
            ).status == 0)
        #expect(try cli("sync").status == 0)
        let merged = try tablet("sync")
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try cli("sync").status == 0)
        // One tree on both devices, whose pointer is the kept photo's.
        let phoneTree = try cli.git("u1", "rev-parse", "HEAD^{tree}").stdout
        let tabletTree = try runProcess("/usr/bin/git", ["-C", tablet + "/u1", "rev-parse", "HEAD^{tree}"]).stdout
        #expect(phoneTree == tabletTree)
        let pointer = try cli.git("u1", "show", "HEAD:.cairn/assets/users/u1/responses/r1/.photo").stdout
        #expect(pointer.hasSuffix("size 6000\n"), "\(pointer)")
        #expect(try cli("asset", "get", "users/u1/responses/r1", "photo").stdout == String(decoding: late, as: UTF8.self))
        // The replaced photo is gone from the server and from the phone that took it.
        let slice = early.subdata(in: 1_000..<1_064)
        #expect(files(under: remote + "/lfs", containing: slice).isEmpty)
        #expect(files(under: cli.home + "/u1/.git/lfs", containing: slice).isEmpty)
    }
}
