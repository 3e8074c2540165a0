import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Assets when devices and git tools disagree, with an app's own set (field notes whose photo
/// merges under the default, field-by-field policy) and a path remote: two photos attached at
/// once, a document kept on one device while another deleted it, a write refused halfway, a
/// repair, git-lfs's filters in the store, an edit committed with plain git. No asset is ever
/// taken apart, and none that a current document needs is lost while a device holds it.
@Suite(.historiesVerified) struct AssetsAcrossDevicesTests {
    let cli = CLI()
    var tablet: String { cli.scratch("tablet") }
    var server: String { cli.scratch("server") }
    var remote: String { server + "/u1.git" }
    static let note = "users/u1/notes/n1"
    static let lfsFilters = [
        "-c", "filter.lfs.smudge=git-lfs smudge -- %f", "-c", "filter.lfs.clean=git-lfs clean -- %f",
        "-c", "filter.lfs.process=git-lfs filter-process", "-c", "filter.lfs.required=true",
    ]

    @discardableResult
    func tablet(_ arguments: String..., input: String? = nil) throws -> ProcessResult {
        try runProcess(CLI.executable, ["--home", tablet, "--user", "u1"] + arguments, input: input)
    }

    /// A new file of `count` random bytes; its path and bytes.
    func photo(_ name: String, _ count: Int) throws -> (path: String, bytes: Data) {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        try bytes.write(to: URL(fileURLWithPath: cli.scratch(name)))
        return (cli.scratch(name), bytes)
    }

    /// The phone's store of the field-notes set on a new path remote, with note n1 synced,
    /// and the tablet's clone of it.
    func twoDevices(photo first: String? = nil) throws {
        let set = cli.scratch("field-notes")
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        try #"""
        {"x-cairn": {"path": "users/{uid}/notes/{noteId}", "assets": {"photo": {}}},
         "type": "object", "properties": {"text": {"type": "string"}, "photo": {"type": ["object", "null"]}}}
        """#.write(toFile: set + "/note.schema.json", atomically: true, encoding: .utf8)
        #expect(try cli("server", "init", server, "u1", "--schema", set).status == 0)
        #expect(try cli("init", "u1", "--schema", set, "--remote", remote).status == 0)
        let put = try runProcess(
            CLI.executable, ["--home", cli.home, "put", Self.note] + (first.map { ["--asset", "photo=" + $0] } ?? []),
            input: #"{"text":"heron"}"#)
        #expect(put.status == 0, "\(put.stderr)")
        #expect(try cli("sync").status == 0)
        #expect(try runProcess(CLI.executable, ["--home", tablet, "clone", remote]).status == 0)
    }

    func document(_ result: ProcessResult) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// The tablet's note n1 with its text changed, the rest as the tablet holds it: what an
    /// app writes when the user edits the text.
    func editTextOnTheTablet(_ text: String) throws -> ProcessResult {
        var note = try document(tablet("get", Self.note))
        note["text"] = text
        let data = try JSONSerialization.data(withJSONObject: note, options: [.sortedKeys])
        return try tablet("put", Self.note, input: String(decoding: data, as: UTF8.self))
    }

    func tree(_ folder: String) throws -> String {
        try runProcess("/usr/bin/git", ["-C", folder, "rev-parse", "HEAD^{tree}"]).stdout
    }

    @Test func twoPhotosAttachedAtOnceKeepOneWholeAndAPlainCloneChecksItOut() throws {
        try twoDevices()
        let small = try photo("small.jpg", 3_000)
        let large = try photo("large.jpg", 5_000)
        #expect(try cli("asset", "add", Self.note, "photo", small.path, "--media-type", "image/jpeg").status == 0)
        #expect(try tablet("asset", "add", Self.note, "photo", large.path).status == 0)
        #expect(try cli("sync").status == 0)
        let merged = try tablet("sync")
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("[asset]"), "the merge says it kept one photo whole: \(merged.stdout)")
        #expect(try cli("sync").status == 0)
        #expect(try tree(cli.home + "/u1") == tree(tablet + "/u1"))
        // One side's reference whole: its oid, size and type belong together.
        let kept = try document(cli("get", Self.note))["photo"] as? [String: Any] ?? [:]
        let path = try cli("asset", "get", Self.note, "photo", "--print-path").stdout.trimmingCharacters(in: .newlines)
        let read = try #require(FileManager.default.contents(atPath: path))
        #expect(read == small.bytes || read == large.bytes)
        #expect(kept["size"] as? Int == read.count)
        #expect((kept["mediaType"] as? String != nil) == (read == small.bytes))
        // git with git-lfs clones the server and checks the kept photo out.
        let plain = cli.scratch("plain")
        let cloned = try runProcess("/usr/bin/git", Self.lfsFilters + ["clone", "-q", remote, plain])
        #expect(cloned.status == 0, "\(cloned.stderr)")
        #expect(FileManager.default.contents(atPath: plain + "/.cairn/assets/\(Self.note)/.photo") == read)
    }

    @Test func aNoteKeptOnTheTabletAfterThePhoneDeletedItHasItsGonePhotoCleared() throws {
        let first = try photo("first.jpg", 4_000)
        try twoDevices(photo: first.path)
        // The phone deletes the note; the server's copy of its photo goes with it.
        #expect(try cli("rm", Self.note).status == 0)
        #expect(try cli("sync").status == 0)
        let left = (FileManager.default.enumerator(atPath: remote + "/lfs/objects")?.allObjects as? [String] ?? []).filter { $0.count > 60 }
        #expect(left.isEmpty)
        // The tablet, which never read the photo, changes the note: the change wins, and the
        // photo nobody holds any more is cleared instead of blocking every sync.
        #expect(try editTextOnTheTablet("grey heron").status == 0)
        let synced = try tablet("sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stdout.contains("cleared \(Self.note) photo: its asset was deleted on another device"), "\(synced.stdout)")
        let kept = try document(tablet("get", Self.note))
        #expect(kept["text"] as? String == "grey heron")
        #expect(kept["photo"] is NSNull)
        #expect(try cli("sync").status == 0)
        #expect(try tree(cli.home + "/u1") == tree(tablet + "/u1"))
        #expect(try tablet("sync").status == 0, "and the next sync is as any other")
    }

    @Test func aNoteKeptOnADeviceThatHoldsItsPhotoBringsThePhotoBack() throws {
        let first = try photo("first.jpg", 4_000)
        try twoDevices(photo: first.path)
        #expect(try tablet("asset", "get", Self.note, "photo", "--print-path").status == 0)
        #expect(try cli("rm", Self.note).status == 0)
        #expect(try cli("sync").status == 0)
        #expect(try editTextOnTheTablet("grey heron").status == 0)
        let synced = try tablet("sync")
        #expect(synced.status == 0 && !synced.stdout.contains("cleared"), "\(synced.stdout)\(synced.stderr)")
        // The photo went back to the server with the note, and the phone reads it again.
        #expect(try cli("sync").status == 0)
        let read = try cli("asset", "get", Self.note, "photo", "--print-path")
        #expect(read.status == 0, "\(read.stderr)")
        #expect(FileManager.default.contents(atPath: read.stdout.trimmingCharacters(in: .newlines)) == first.bytes)
    }

    @Test func aRefusedWriteLeavesThePhotoOfANoteNotYetCheckpointed() throws {
        try twoDevices()
        let shared = try photo("shared.jpg", 2_000)
        #expect(try cli("put", "users/u1/notes/n2", "--asset", "photo=" + shared.path, input: #"{"text":"owl"}"#).status == 0)
        // The same file on a note the schema refuses: nothing written, and n2's photo stays.
        let refused = try cli("put", "users/u1/notes/n3", "--asset", "photo=" + shared.path, input: #"{"text":7}"#)
        #expect(refused.status != 0)
        let synced = try cli("sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try tablet("sync").status == 0)
        let read = try tablet("asset", "get", "users/u1/notes/n2", "photo", "--print-path")
        #expect(FileManager.default.contents(atPath: read.stdout.trimmingCharacters(in: .newlines)) == shared.bytes, "\(read.stderr)")
    }

    @Test func aRepairKeepsAnUnpushedNoteWithItsPhoto() throws {
        try twoDevices()
        let kept = try photo("kept.jpg", 2_500)
        #expect(try cli("put", "users/u1/notes/n2", "--asset", "photo=" + kept.path, input: #"{"text":"owl"}"#).status == 0)
        #expect(try cli("checkpoint").status == 0)
        let repaired = try cli("repair")
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect(!repaired.stdout.contains("not kept"), "\(repaired.stdout)")
        let read = try cli("asset", "get", "users/u1/notes/n2", "photo", "--print-path")
        #expect(FileManager.default.contents(atPath: read.stdout.trimmingCharacters(in: .newlines)) == kept.bytes, "\(read.stderr)")
        #expect(try cli("sync").status == 0)
    }

    @Test func aPointerGitLFSFilledWithThePhotoDoesNotStopTheNextSync() throws {
        let first = try photo("first.jpg", 3_000)
        try twoDevices(photo: first.path)
        // git-lfs's checkout puts the photo itself where the pointer was.
        let pointer = ".cairn/assets/\(Self.note)/.photo"
        try FileManager.default.removeItem(atPath: cli.home + "/u1/" + pointer)
        #expect(try runProcess("/usr/bin/git", ["-C", cli.home + "/u1"] + Self.lfsFilters + ["checkout", "--", pointer]).status == 0)
        #expect(FileManager.default.contents(atPath: cli.home + "/u1/" + pointer) == first.bytes)
        // The tablet replaces the photo; the phone's sync moves its working tree over the file.
        let second = try photo("second.jpg", 3_500)
        #expect(try tablet("asset", "add", Self.note, "photo", second.path).status == 0)
        #expect(try tablet("sync").status == 0)
        let synced = try cli("sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try tree(cli.home + "/u1") == tree(tablet + "/u1"))
    }

    @Test func aPhotoClearedWithPlainGitIsPushedWithoutItsPointerAndDeleted() throws {
        let first = try photo("first.jpg", 3_000)
        try twoDevices(photo: first.path)
        let file = cli.home + "/u1/\(Self.note).json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let edited = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        var cleared = edited
        cleared["photo"] = NSNull()
        try JSONSerialization.data(withJSONObject: cleared, options: [.sortedKeys]).write(to: URL(fileURLWithPath: file))
        #expect(try cli.git("u1", "commit", "-qam", "No photo after all").status == 0)
        HistoriesVerified.exemptHead(
            of: cli.home + "/u1",
            because:
                "plain git committed the cleared field without clearing its pointer; the next commit, Cairn's, writes the pointers again, and verify names the first as it names a stale derived field"
        )
        let synced = try cli("sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        let listed = try runProcess("/usr/bin/git", ["--git-dir", remote, "ls-tree", "-r", "--name-only", "main"]).stdout
        #expect(!listed.contains(".photo"), "\(listed)")
        let objects = FileManager.default.enumerator(atPath: remote + "/lfs/objects")?.allObjects as? [String] ?? []
        #expect(objects.filter { $0.count > 60 }.isEmpty)
    }
}
