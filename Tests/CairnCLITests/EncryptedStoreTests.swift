import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A store encrypted at rest, used from the command line on two devices through one bare
/// remote: its documents are sealed in the working tree, in git's objects and on the server,
/// git shows them as JSON only where the key is, and the server's hook still holds the rules
/// it can check without reading them.
@Suite(.historiesVerified) struct EncryptedStoreTests {
    let cli = CLI()
    var phone: String { cli.home }
    var tablet: String { cli.scratch("tablet") }
    var remote: String { cli.scratch("server") + "/u1.git" }
    var keyFile: String { cli.scratch("u1.key") }

    /// Values no sealed byte string shows by chance, one per kind of document written.
    static let secrets = ["Quokka-Zanzibar-Chronicle", "Marmalade-Lighthouse", "Perihelion-Teacup", "4711993"]

    @discardableResult
    func tablet(_ arguments: String..., input: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
        try runProcess(CLI.executable, ["--home", tablet, "--user", "u1"] + arguments, input: input, environment: environment)
    }

    /// The phone's encrypted store, synced to a new server repository, and the tablet's clone.
    func twoDevices() throws {
        let created = try cli("init", "u1", "--schema", "bonfire", "--encrypted", "--key-file", keyFile)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("Wrote a new key to \(keyFile) (mode 0600)"))
        let mode = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try cli("server", "init", cli.scratch("server"), "u1").status == 0)
        #expect(try cli("remote", "set", remote).status == 0)
        #expect(
            try cli("put", "users/u1/bookProgress/b1", input: #"{"book":"\#(Self.secrets[0])","lastPageIndex":12,"percentComplete":40}"#)
                .status == 0)
        #expect(
            try cli(
                "put", "users/u1/readingSessions/s1",
                input: #"{"book":"\#(Self.secrets[1])","startedAt":"2026-11-20T08:00:00Z","durationSeconds":600}"#
            ).status == 0)
        #expect(
            try cli(
                "put", "users/u1/wordProgress/w1",
                input: #"{"lemma":"\#(Self.secrets[2])","proficiency":0.5,"correctCount":3,"incorrectCount":1}"#
            ).status == 0)
        let synced = try cli("sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        let cloned = try runProcess(CLI.executable, ["--home", tablet, "clone", remote, "--key-file", keyFile])
        #expect(cloned.status == 0, "\(cloned.stderr)")
    }

    @Test func noDocumentValueIsInTheClearInTheStoresOrOnTheServer() throws {
        try twoDevices()
        // Both devices change one book offline: the merge decides a conflict, whose record
        // names values, and counts a word on both sides.
        #expect(
            try cli("put", "users/u1/bookProgress/b1", input: #"{"book":"\#(Self.secrets[0])","lastPageIndex":30,"percentComplete":40}"#)
                .status == 0)
        #expect(
            try tablet(
                "put", "users/u1/bookProgress/b1", input: #"{"book":"\#(Self.secrets[0])","lastPageIndex":4711993,"percentComplete":55}"#
            ).status == 0)
        #expect(try tablet("sync").status == 0)
        let merged = try cli("sync")
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("kept 4711993"), "the device shows what its merge decided: \(merged.stdout)")
        #expect(try tablet("sync").status == 0)
        // Where the key is, the conflict record reads back whole.
        let conflicts = try cli("conflicts")
        #expect(conflicts.stdout.contains("4711993"), "\(conflicts.stdout)")

        for folder in [phone + "/u1", tablet + "/u1", remote] {
            for secret in Self.secrets {
                #expect(try !anyFile(under: folder, contains: secret), "\(secret) is in a file under \(folder)")
                #expect(try !anyObject(of: folder, contains: secret), "\(secret) is in an object of \(folder)")
            }
        }
        // The documents are there all the same, for whoever holds the key.
        let book = try tablet("get", "users/u1/bookProgress/b1")
        #expect(book.stdout.contains(Self.secrets[0]) && book.stdout.contains("4711993"), "\(book.stdout)")
    }

    /// Both devices count the word offline, then sync: the phone merges, the tablet takes it.
    func bothCountTheWord() throws {
        #expect(
            try cli(
                "put", "users/u1/wordProgress/w1",
                input: #"{"lemma":"\#(Self.secrets[2])","proficiency":0.5,"correctCount":5,"incorrectCount":1}"#
            ).status == 0)
        #expect(
            try tablet(
                "put", "users/u1/wordProgress/w1",
                input: #"{"lemma":"\#(Self.secrets[2])","proficiency":0.5,"correctCount":4,"incorrectCount":2}"#
            ).status == 0)
        #expect(try tablet("sync").status == 0)
        #expect(try cli("sync").status == 0)
        #expect(try tablet("sync").status == 0)
    }

    @Test func twoDevicesConvergeOnOneTreeThroughAnEncryptedRemote() throws {
        try twoDevices()
        try bothCountTheWord()
        let phoneTree = try cli.git("u1", "rev-parse", "HEAD^{tree}").stdout
        let tabletTree = try git("rev-parse", "HEAD^{tree}", in: tablet + "/u1").stdout
        #expect(phoneTree == tabletTree)
        // The counters added both sides' increments: 3 → 5 and 3 → 4 is 6; 1 → 2 is 2.
        let word = try tablet("get", "users/u1/wordProgress/w1").stdout
        #expect(word.contains(#""correctCount": 6"#) && word.contains(#""incorrectCount": 2"#), "\(word)")
    }

    @Test func gitShowsJSONWhereTheKeyIsAndNeverWhereItIsNot() throws {
        try twoDevices()
        #expect(
            try cli("put", "users/u1/bookProgress/b1", input: #"{"book":"\#(Self.secrets[0])","lastPageIndex":13,"percentComplete":41}"#)
                .status == 0)
        #expect(try cli("checkpoint").status == 0)
        let log = try cli.git("u1", "log", "-p", "-1")
        #expect(log.stdout.contains(#"-  "lastPageIndex": 12,"#) && log.stdout.contains(#"+  "lastPageIndex": 13,"#), "\(log.stdout)")
        // An uncommitted write, through git diff in the working tree.
        #expect(
            try cli("put", "users/u1/bookProgress/b1", input: #"{"book":"\#(Self.secrets[0])","lastPageIndex":14,"percentComplete":41}"#)
                .status == 0)
        let diff = try cli.git("u1", "diff", "HEAD")
        #expect(diff.stdout.contains(#"+  "lastPageIndex": 14,"#), "\(diff.stdout)")
        // Git's own status sees the sealed files exactly as committed.
        #expect(try cli("checkpoint").status == 0)
        #expect(try cli.git("u1", "status", "--porcelain").stdout == "")

        // A plain clone of the server, with no key and no Cairn: binary blobs, no plaintext.
        let plain = cli.scratch("plain")
        #expect(try runProcess("/usr/bin/git", ["clone", "-q", remote, plain]).status == 0)
        let blind = try git("log", "-p", in: plain)
        #expect(blind.status == 0)
        #expect(blind.stdout.contains("Binary files"), "\(blind.stdout.prefix(2_000))")
        for secret in Self.secrets { #expect(!blind.stdout.contains(secret)) }
        // Cairn's text converter without a key says so in one line, and git goes on.
        let blindTextconv = try runProcess(CLI.executable, ["key", "textconv", plain + "/users/u1/bookProgress/b1.json"])
        #expect(blindTextconv.status == 0)
        #expect(
            blindTextconv.stdout.hasPrefix("<encrypted with key ") && blindTextconv.stdout.hasSuffix("; no key here>\n"),
            "\(blindTextconv.stdout)")
    }

    @Test func aRotationSealsEveryDocumentAgainInOneCheckpointAndKeepsHistoryReadable() throws {
        try twoDevices()
        let before = try cli("key", "show").stdout
        let oldID = try #require(before.split(separator: "\n").first?.split(separator: " ").last.map(String.init))
        let oldHead = try cli.git("u1", "rev-parse", "HEAD").stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let rotated = try cli("key", "rotate", environment: ["CAIRN_KEY_FILE": keyFile])
        #expect(rotated.status == 0, "\(rotated.stderr)")
        // The book and the word; the reading session is append-only and keeps its blob.
        #expect(rotated.stdout.contains("(2 documents sealed again)"), "\(rotated.stdout)")
        #expect(try cli.git("u1", "diff", "--stat", "HEAD~1", "HEAD", "--", "users/u1/readingSessions").stdout == "")
        let after = try cli("key", "show").stdout
        #expect(!after.contains("encrypted with key \(oldID)") && after.contains("Earlier keys, for its history: \(oldID)"), "\(after)")
        // One checkpoint, with the trailer; every document's blob is now under the new key.
        let message = try cli.git("u1", "log", "-1", "--format=%B").stdout
        #expect(message.contains("Cairn-Key-Rotation: \(oldID) -> "), "\(message)")
        #expect(message.contains("and the 1 append-only document, which never changes"), "\(message)")
        #expect(try cli.git("u1", "rev-parse", "HEAD~1").stdout.trimmingCharacters(in: .whitespacesAndNewlines) == oldHead)
        let keyFileLines = try String(contentsOfFile: keyFile, encoding: .utf8).split(separator: "\n")
        #expect(keyFileLines.count == 2)
        // The history before the rotation reads with the old key, kept in the key file.
        let old = try cli("get", "users/u1/bookProgress/b1", "--at", "HEAD~1")
        #expect(old.status == 0 && old.stdout.contains(Self.secrets[0]), "\(old.stderr)")

        #expect(try cli("sync").status == 0)
        // The tablet, still holding the old key alone, refuses what it cannot read, in one line.
        let tabletKey = cli.scratch("tablet.key")
        try String(keyFileLines[1] + "\n").write(toFile: tabletKey, atomically: true, encoding: .utf8)
        #expect(chmod(tabletKey, 0o600) == 0)
        let refused = try tablet("sync", environment: ["CAIRN_KEY_FILE": tabletKey])
        #expect(refused.status != 0)
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("which is not among the keys given"), "\(refused.stderr)")
        // Given the new key file, it syncs.
        let synced = try tablet("sync", environment: ["CAIRN_KEY_FILE": keyFile])
        #expect(synced.status == 0, "\(synced.stderr)")
    }

    /// A history with a merge of the two devices, then a rotation: the merge, made under the
    /// old key, is still what the policies give (the documents it holds are compared, not the
    /// key that sealed them), on both devices and on the server's repository. A device given
    /// the old key alone checks what that key opens and says, in one line, what it could not.
    @Test func aRotationLeavesASoundHistorySound() throws {
        try twoDevices()
        try bothCountTheWord()
        #expect(try cli.git("u1", "log", "-1", "--format=%P").stdout.split(separator: " ").count == 2, "a merge to audit")
        #expect(try cli("verify").status == 0)
        let oldKeyLines = try String(contentsOfFile: keyFile, encoding: .utf8)

        let rotated = try cli("key", "rotate", environment: ["CAIRN_KEY_FILE": keyFile])
        #expect(rotated.status == 0, "\(rotated.stderr)")
        #expect(try cli("sync").status == 0)
        #expect(try tablet("sync", environment: ["CAIRN_KEY_FILE": keyFile]).status == 0)
        for (name, result) in [("phone", try cli("verify")), ("tablet", try tablet("verify", environment: ["CAIRN_KEY_FILE": keyFile]))] {
            #expect(result.status == 0, "\(name): \(result.stdout)\(result.stderr)")
            #expect(result.stdout.hasPrefix("Verified "), "\(name): \(result.stdout)")
        }
        // The server's repository, without any key: its merges cannot be merged again, and
        // verify says so in one line rather than passing them in silence or failing them.
        let served = try cli("verify", "--git-dir", remote)
        #expect(served.status == 0, "\(served.stdout)\(served.stderr)")
        #expect(served.stdout.contains("not judged") && served.stdout.contains("encrypted"), "\(served.stdout)")

        // The old key alone: what it opens is checked, and the rest is named in one line.
        let oldKey = cli.scratch("old.key")
        try oldKeyLines.write(toFile: oldKey, atomically: true, encoding: .utf8)
        #expect(chmod(oldKey, 0o600) == 0)
        let partial = try cli("verify", environment: ["CAIRN_KEY_FILE": oldKey])
        #expect(partial.status == 0, "\(partial.stdout)\(partial.stderr)")
        let notes = partial.stdout.split(separator: "\n").filter { $0.contains("not judged") }
        #expect(notes.count == 1 && notes[0].contains("which is not among the keys given"), "\(partial.stdout)")
    }

    @Test func aMissingWrongOrOpenKeyIsOneLineAndNothingWritten() throws {
        try twoDevices()
        let snapshot = try cli.snapshot("u1")
        let wrong = cli.scratch("wrong.key")
        #expect(
            try runProcess(CLI.executable, ["--home", cli.scratch("other"), "init", "u9", "--encrypted", "--key-file", wrong]).status == 0)
        let open = cli.scratch("open.key")
        try FileManager.default.copyItem(atPath: keyFile, toPath: open)
        #expect(chmod(open, 0o644) == 0)
        let cases: [(environment: [String: String], says: String)] = [
            (["CAIRN_KEY_FILE": wrong], "which is not among the keys given"),
            (["CAIRN_KEY_FILE": open], "has mode 0644; a key file must be readable by its owner alone (chmod 600"),
            (["CAIRN_KEY_FILE": cli.scratch("none.key")], "does not exist"),
            (["CAIRN_KEY": "not a key"], "CAIRN_KEY"),
        ]
        for (environment, says) in cases {
            let result = try cli(
                "put", "users/u1/bookProgress/b2", input: #"{"book":"b","lastPageIndex":1,"percentComplete":1}"#, environment: environment)
            #expect(result.status == 1, "\(environment)")
            #expect(result.stderr.split(separator: "\n").count == 1 && result.stderr.contains(says), "\(environment): \(result.stderr)")
        }
        // No key at all: the store's own key file setting removed.
        #expect(try cli.git("u1", "config", "--unset", "cairn.keyFile").status == 0)
        let none = try cli("get", "users/u1/bookProgress/b1")
        #expect(none.status == 1)
        #expect(none.stderr.contains("is encrypted and no key was given") && none.stderr.contains("set CAIRN_KEY_FILE"), "\(none.stderr)")
        #expect(try cli.git("u1", "config", "cairn.keyFile", keyFile).status == 0)
        #expect(try cli.snapshot("u1") == snapshot)
        // An encrypted store is never made without a key.
        let keyless = try runProcess(CLI.executable, ["--home", cli.scratch("keyless"), "init", "u2", "--encrypted"])
        #expect(keyless.status != 0 && keyless.stderr.contains("needs a key"), "\(keyless.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.scratch("keyless") + "/u2"))
    }

    @Test func theServerHoldsItsRulesWithoutReadingTheDocuments() throws {
        try twoDevices()
        // Pushes by plain git, from a clone of the server, through the server's hook.
        let hacker = cli.scratch("plain")
        #expect(try runProcess("/usr/bin/git", ["clone", "-q", remote, hacker]).status == 0)
        #expect(try git("config", "user.email", "x@example.invalid", in: hacker).status == 0)
        #expect(try git("config", "user.name", "X", in: hacker).status == 0)
        func push(_ change: () throws -> Void) throws -> ProcessResult {
            try change()
            _ = try git("add", "-A", in: hacker)
            _ = try git("commit", "-q", "-m", "by hand", in: hacker)
            let pushed = try git("push", "origin", "main", in: hacker)
            _ = try git("reset", "-q", "--hard", "origin/main", in: hacker)
            return pushed
        }
        let sessions = hacker + "/users/u1/readingSessions"
        // A plain document in an encrypted store.
        let plain = try push {
            try #"{"startedAt":"2026-11-21T08:00:00Z","durationSeconds":5}"#.write(
                toFile: sessions + "/s2.json", atomically: true, encoding: .utf8)
        }
        #expect(plain.status != 0 && plain.stderr.contains("is not encrypted, and the store is"), "\(plain.stderr)")
        // An append-only document changed: another sealed blob, refused by its id.
        let changed = try push {
            try FileManager.default.copyItem(atPath: hacker + "/users/u1/bookProgress/b1.json", toPath: sessions + "/s1.json.tmp")
            try FileManager.default.removeItem(atPath: sessions + "/s1.json")
            try FileManager.default.moveItem(atPath: sessions + "/s1.json.tmp", toPath: sessions + "/s1.json")
        }
        #expect(changed.status != 0 && changed.stderr.contains("is append-only"), "\(changed.stderr)")
        // A sealed blob moved to another path.
        let moved = try push {
            try FileManager.default.copyItem(atPath: sessions + "/s1.json", toPath: sessions + "/s3.json")
        }
        #expect(
            moved.status != 0 && moved.stderr.contains("holds the encrypted document of users/u1/readingSessions/s1.json"),
            "\(moved.stderr)")
        // The store turned plain.
        let unmarked = try push {
            let identity = hacker + "/.cairn/store.json"
            let text = try String(contentsOfFile: identity, encoding: .utf8).replacingOccurrences(of: #""encrypted": true,"#, with: "")
            try text.write(toFile: identity, atomically: true, encoding: .utf8)
        }
        #expect(unmarked.status != 0 && unmarked.stderr.contains("a store is encrypted or plain from its creation"), "\(unmarked.stderr)")
        // What a device with the key pushes still goes through.
        #expect(
            try cli("put", "users/u1/readingSessions/s4", input: #"{"startedAt":"2026-11-22T08:00:00Z","durationSeconds":60}"#).status == 0)
        #expect(try cli("sync").status == 0)
    }

    // MARK: Looking for plaintext

    /// Whether any file under `folder` holds `text` as bytes (packs and loose objects are
    /// compressed: ``anyObject(of:contains:)`` looks inside them).
    private func anyFile(under folder: String, contains text: String) throws -> Bool {
        let needle = Data(text.utf8)
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            let path = folder + "/" + name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                let data = FileManager.default.contents(atPath: path)
            else { continue }
            if data.range(of: needle) != nil { return true }
        }
        return false
    }

    /// Whether any object of the repository at `folder`, inflated, holds `text`: every blob,
    /// tree and commit, messages included.
    private func anyObject(of folder: String, contains text: String) throws -> Bool {
        let objects = try runProcess("/usr/bin/git", ["-C", folder, "cat-file", "--batch-all-objects", "--batch"])
        #expect(objects.status == 0)
        #expect(objects.stdout.count > 1_000, "the repository holds objects to look in")
        return objects.stdout.contains(text)
    }
}
