import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Moving progress as a user would with the tool: an anonymous user's store imported into
/// the signed-in user's, a store migrated to a newer schema version (also while another
/// device is still on the old one), and retention pruning old append-only attempts.
@Suite(.historiesVerified) struct UsersImportMigrationTests {
    let folder = TemporaryFolder("cairn-import")
    /// The variant schema sets a test builds live under `sets/`.
    var environment: [String: String] { ["CAIRN_SYNC_RETRY": "none", "CAIRN_SCHEMA_PATH": folder.path + "/sets"] }

    var remote: String { folder.path + "/server/u1.git" }
    let phone = "+447700900123"

    /// Runs the tool on a home (a device: each device is a home) as `user`.
    @discardableResult
    func on(_ device: String, _ user: String, _ arguments: String..., input: String? = nil) throws -> ProcessResult {
        try runProcess(
            CLI.executable, ["--home", folder.path + "/" + device, "--user", user] + arguments,
            input: input, environment: environment)
    }

    /// Runs the tool without `--user` (init, clone, server init).
    @discardableResult
    func cairn(_ arguments: String..., input: String? = nil) throws -> ProcessResult {
        try runProcess(CLI.executable, arguments, input: input, environment: environment)
    }

    /// Runs plain git in the store of `user` on `device`.
    @discardableResult
    func gitRun(_ device: String, _ user: String, _ arguments: String...) throws -> ProcessResult {
        try runProcess("/usr/bin/git", ["-C", folder.path + "/\(device)/\(user)"] + arguments)
    }

    func git(_ device: String, _ user: String, _ arguments: String...) throws -> String {
        try runProcess("/usr/bin/git", ["-C", folder.path + "/\(device)/\(user)"] + arguments).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func commits(_ device: String, _ user: String) throws -> Int {
        Int(try git(device, user, "rev-list", "--count", "HEAD")) ?? -1
    }

    /// A failure as the tool promises it: one line on stderr, prefixed by `cairn:`.
    func isOneLineError(_ result: ProcessResult) -> Bool {
        result.status == 1 && result.stderr.hasPrefix("cairn: ") && result.stderr.split(separator: "\n").count == 1
    }

    /// The field at `keys` of a document as `get` prints it.
    func field(_ json: String, _ keys: String...) -> Any? {
        var value: Any? = try? JSONSerialization.jsonObject(with: Data(json.utf8))
        for key in keys { value = (value as? [String: Any])?[key] }
        return value
    }

    /// Every file of a store's working tree with its content, and its HEAD.
    func snapshot(_ device: String, _ user: String) throws -> [String: Data] {
        let base = folder.path + "/\(device)/\(user)"
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: base)
        while let name = enumerator?.nextObject() as? String {
            if name == ".git" {
                enumerator?.skipDescendants()
                continue
            }
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: base + "/" + name, isDirectory: &isFolder)
            files[name] = isFolder.boolValue ? Data() : try Data(contentsOf: URL(fileURLWithPath: base + "/" + name))
        }
        files["HEAD"] = Data(try git(device, user, "rev-parse", "HEAD").utf8)
        return files
    }

    func attempt(_ id: String, score: Int, day: Int) -> String {
        #"{"attemptId":"\#(id)","examId":"practice-1","status":"passed","score":\#(score),"completedAt":"2026-11-\#(day < 10 ? "0" : "")\#(day)T10:00:00Z"}"#
    }

    func task(_ id: String, title: String = "Morning walk") -> String {
        #"{"id":"\#(id)","userId":"u1","profileId":"\#(phone)","title":"\#(title)","scheduledTime":"09:00","nextScheduledDate":"2026-11-02"}"#
    }

    let user = #"{"id":"u1","email":"ann@example.com","fullName":"Ann","phoneNumber":"+447700900999","createdAt":"2026-01-01T00:00:00Z"}"#

    var profile: String {
        #"{"id":"\#(phone)","userId":"u1","name":"Mum","phoneNumber":"\#(phone)","createdAt":"2026-01-01T00:00:00Z"}"#
    }

    // MARK: - Import

    /// Someone practised as an anonymous user, then signed in as u1 on the same machine:
    /// `import` brings every attempt, merges the book's sections and adds the attempt
    /// counters, in one checkpoint that names the imported commit; the anonymous store is
    /// untouched, and importing again takes only what changed there since.
    @Test func anAnonymousUsersProgressIsImportedOnceAndThenOnlyWhatChanged() throws {
        #expect(try cairn("--home", folder.path + "/h", "init", "anon-1", "--schema", "life-in-uk").status == 0)
        #expect(try cairn("--home", folder.path + "/h", "init", "u1", "--schema", "life-in-uk").status == 0)
        for (id, score, day) in [("a1", 80, 1), ("a2", 90, 2)] {
            #expect(try on("h", "anon-1", "put", "users/anon-1/examAttempts/\(id)", input: attempt(id, score: score, day: day)).status == 0)
        }
        #expect(
            try on(
                "h", "anon-1", "put", "users/anon-1/books/b1",
                input: #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":10}},"updatedAt":10}"#
            ).status == 0)
        #expect(
            try on(
                "h", "anon-1", "put", "users/anon-1/progress/exam",
                input:
                    #"{"schemaVersion":1,"examSummaries":{"practice-1":{"attemptCount":2,"bestScore":90,"lastCompletedAt":"2026-11-02T10:00:00Z"}}}"#
            ).status == 0)
        #expect(try on("h", "u1", "put", "users/u1/examAttempts/b1", input: attempt("b1", score: 70, day: 3)).status == 0)
        #expect(
            try on(
                "h", "u1", "put", "users/u1/books/b1",
                input: #"{"schemaVersion":1,"bookId":"b1","sections":{"s2":{"completed":true,"updatedAt":20}},"updatedAt":20}"#
            ).status == 0)
        #expect(
            try on(
                "h", "u1", "put", "users/u1/progress/exam",
                input: #"{"schemaVersion":1,"examSummaries":{"practice-1":{"attemptCount":1,"bestScore":70}}}"#
            ).status == 0)
        #expect(try on("h", "u1", "checkpoint").status == 0)

        // The anonymous store still has writes not checkpointed: nothing is imported yet.
        let u1Before = try snapshot("h", "u1")
        let early = try on("h", "u1", "import", "anon-1")
        #expect(isOneLineError(early), "\(early.stderr)")
        #expect(early.stderr.contains("checkpoint"), "\(early.stderr)")
        #expect(try snapshot("h", "u1") == u1Before)
        #expect(try on("h", "anon-1", "checkpoint").status == 0)

        let anonBefore = try snapshot("h", "anon-1")
        let anonListing = try on("h", "anon-1", "ls", "users/anon-1/examAttempts").stdout
        let count = try commits("h", "u1")
        let imported = try on("h", "u1", "import", "anon-1")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("Imported 4 documents of anon-1 into u1: checkpoint "), "\(imported.stdout)")
        #expect(try commits("h", "u1") == count + 1)
        #expect(try on("h", "u1", "ls", "users/u1/examAttempts").stdout == "a1\na2\nb1\n")
        let book = try on("h", "u1", "get", "users/u1/books/b1").stdout
        #expect(field(book, "sections", "s1", "updatedAt") as? Int == 10)
        #expect(field(book, "sections", "s2", "updatedAt") as? Int == 20)
        #expect(field(book, "completedCount") as? Int == 2)
        let summary = try on("h", "u1", "get", "users/u1/progress/exam").stdout
        #expect(field(summary, "examSummaries", "practice-1", "attemptCount") as? Int == 3, "\(summary)")
        #expect(field(summary, "examSummaries", "practice-1", "bestScore") as? Int == 90, "\(summary)")
        let message = try git("h", "u1", "log", "-1", "--format=%B")
        let anonHead = try git("h", "anon-1", "rev-parse", "HEAD")
        #expect(message.split(separator: "\n").contains { $0 == "Cairn-Imported: anon-1 \(anonHead)" }, "\(message)")
        #expect(anonHead.count == 40 && anonHead.allSatisfy(\.isHexDigit))
        #expect(try git("h", "u1", "status", "--porcelain").isEmpty)
        // The anonymous store is read, never changed, and still works.
        #expect(try snapshot("h", "anon-1") == anonBefore)
        #expect(try on("h", "anon-1", "ls", "users/anon-1/examAttempts").stdout == anonListing)
        #expect(try on("h", "anon-1", "get", "users/anon-1/books/b1").status == 0)
        // Switching users never shows another's documents.
        let foreign = try on("h", "anon-1", "ls", "users/u1/examAttempts")
        #expect(isOneLineError(foreign), "\(foreign.stderr)")
        #expect(!foreign.stdout.contains("b1"))

        // Nothing changed in the anonymous store: nothing to import, no new checkpoint.
        let again = try on("h", "u1", "import", "anon-1")
        #expect(again.status == 0 && again.stdout == "Nothing new to import from anon-1.\n", "\(again.stdout)\(again.stderr)")
        #expect(try commits("h", "u1") == count + 1)

        // One more attempt there: only that one arrives, and the counter is not counted twice.
        #expect(try on("h", "anon-1", "put", "users/anon-1/examAttempts/a3", input: attempt("a3", score: 60, day: 4)).status == 0)
        #expect(try on("h", "anon-1", "checkpoint").status == 0)
        let one = try on("h", "u1", "import", "anon-1")
        #expect(one.status == 0 && one.stdout.hasPrefix("Imported 1 document of anon-1 into u1"), "\(one.stdout)\(one.stderr)")
        #expect(try git("h", "u1", "show", "--format=", "--name-only", "HEAD") == "users/u1/examAttempts/a3.json")
        #expect(try on("h", "u1", "ls", "users/u1/examAttempts").stdout == "a1\na2\na3\nb1\n")
        let unchanged = try on("h", "u1", "get", "users/u1/progress/exam").stdout
        #expect(field(unchanged, "examSummaries", "practice-1", "attemptCount") as? Int == 3, "\(unchanged)")

        // The summary there went 2 → 3 with a new attempt: only that delta is added (4, not 6).
        #expect(try on("h", "anon-1", "put", "users/anon-1/examAttempts/a4", input: attempt("a4", score: 85, day: 5)).status == 0)
        #expect(
            try on(
                "h", "anon-1", "put", "users/anon-1/progress/exam",
                input:
                    #"{"schemaVersion":1,"examSummaries":{"practice-1":{"attemptCount":3,"bestScore":90,"lastCompletedAt":"2026-11-05T10:00:00Z"}}}"#
            ).status == 0)
        #expect(try on("h", "anon-1", "checkpoint").status == 0)
        let delta = try on("h", "u1", "import", "anon-1")
        #expect(delta.status == 0 && delta.stdout.hasPrefix("Imported 2 documents of anon-1 into u1"), "\(delta.stdout)\(delta.stderr)")
        #expect(try on("h", "u1", "ls", "users/u1/examAttempts").stdout == "a1\na2\na3\na4\nb1\n")
        let counted = try on("h", "u1", "get", "users/u1/progress/exam").stdout
        #expect(field(counted, "examSummaries", "practice-1", "attemptCount") as? Int == 4, "\(counted)")
        #expect(field(counted, "examSummaries", "practice-1", "bestScore") as? Int == 90, "\(counted)")
        #expect(
            try git("h", "u1", "log", "-1", "--format=%B").contains("Cairn-Imported: anon-1 \(try git("h", "anon-1", "rev-parse", "HEAD"))")
        )
        #expect(try commits("h", "u1") == count + 3)
        #expect(try git("h", "u1", "status", "--porcelain").isEmpty)
        #expect(try on("h", "u1", "validate").status == 0)
    }

    /// Importing oneself, or a user with no store here, fails with one line and changes nothing.
    @Test func importingItselfOrAnUnknownUserIsRefused() throws {
        #expect(try cairn("--home", folder.path + "/h", "init", "u1", "--schema", "life-in-uk").status == 0)
        #expect(try on("h", "u1", "put", "users/u1/examAttempts/a1", input: attempt("a1", score: 80, day: 1)).status == 0)
        let before = try snapshot("h", "u1")
        let itself = try on("h", "u1", "import", "u1")
        #expect(isOneLineError(itself), "\(itself.stderr)")
        let nobody = try on("h", "u1", "import", "nobody")
        #expect(isOneLineError(nobody), "\(nobody.stderr)")
        #expect(nobody.stderr.contains("nobody"))
        #expect(try snapshot("h", "u1") == before)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/h/nobody"))
    }

    /// Both users wrote an attempt with the same ID and the policy keeps this user's: the
    /// import still says what it decided and records the import, instead of calling the
    /// other user's attempt nothing new.
    @Test func anImportWhosePolicyKeepsThisUsersDocumentStillSaysWhatItDecided() throws {
        #expect(try cairn("--home", folder.path + "/h", "init", "anon-1", "--schema", "life-in-uk").status == 0)
        #expect(try cairn("--home", folder.path + "/h", "init", "u1", "--schema", "life-in-uk").status == 0)
        #expect(try on("h", "anon-1", "put", "users/anon-1/examAttempts/a1", input: attempt("a1", score: 80, day: 2)).status == 0)
        #expect(try on("h", "anon-1", "checkpoint").status == 0)
        #expect(try on("h", "u1", "put", "users/u1/examAttempts/a1", input: attempt("a1", score: 30, day: 1)).status == 0)
        #expect(try on("h", "u1", "checkpoint").status == 0)
        let imported = try on("h", "u1", "import", "anon-1")
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(!imported.stdout.hasPrefix("Nothing new to import"), "\(imported.stdout)")
        #expect(imported.stdout.contains("users/u1/examAttempts/a1 [append-only]"), "\(imported.stdout)")
        #expect(try git("h", "u1", "log", "-1", "--format=%B").contains("Cairn-Imported: anon-1 "))
        #expect(try on("h", "u1", "import", "anon-1").stdout == "Nothing new to import from anon-1.\n")
    }

    // MARK: - Migration

    /// A Remi store on the flat version 1 moves to version 2 in one checkpoint: tasks become
    /// habits and responses messages under their profile, the user's counts still right.
    /// Going back to version 1 afterwards is refused.
    @Test func aStoreMigratesFromVersion1To2InOneCheckpoint() throws {
        #expect(try cairn("--home", folder.path + "/h", "init", "u1", "--schema", "remi-v1").status == 0)
        #expect(try on("h", "u1", "put", "users/u1", input: user).status == 0)
        #expect(try on("h", "u1", "put", "users/u1/profiles/\(phone)", input: profile).status == 0)
        #expect(try on("h", "u1", "put", "users/u1/tasks/t1", input: task("t1")).status == 0)
        #expect(try on("h", "u1", "put", "users/u1/tasks/t2", input: task("t2")).status == 0)
        #expect(
            try on(
                "h", "u1", "put", "users/u1/responses/r1",
                input:
                    #"{"id":"r1","userId":"u1","profileId":"\#(phone)","receivedAt":"2026-11-01T09:05:00Z","responseType":"text","textResponse":"done"}"#
            ).status == 0)
        #expect(try on("h", "u1", "checkpoint").status == 0)
        let count = try commits("h", "u1")

        let migrated = try on("h", "u1", "migrate", "--schema", "remi")
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try commits("h", "u1") == count + 1)
        #expect(try git("h", "u1", "log", "-1", "--format=%s").hasPrefix("Migrate to schema version 2 (remi): "))
        let profileFolder = "users/u1/profiles/\(phone)"
        #expect(try on("h", "u1", "ls", profileFolder + "/habits").stdout == "t1\nt2\n")
        #expect(try on("h", "u1", "ls", profileFolder + "/messages").stdout == "r1\n")
        let flat = try on("h", "u1", "ls", "users/u1/tasks")
        #expect(flat.status != 0 || flat.stdout.isEmpty, "\(flat.stdout)")
        let habit = try on("h", "u1", "get", profileFolder + "/habits/t1").stdout
        #expect(field(habit, "profileId") as? String == phone && field(habit, "title") as? String == "Morning walk")
        let counts = try on("h", "u1", "get", "users/u1").stdout
        #expect(field(counts, "taskCount") as? Int == 2, "\(counts)")
        #expect(field(counts, "profileCount") as? Int == 1, "\(counts)")
        #expect(try git("h", "u1", "status", "--porcelain").isEmpty)
        let validate = try on("h", "u1", "validate")
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        // The store now names the set it follows.
        let status = try on("h", "u1", "status", "--json").stdout
        #expect(field(status, "schemaSet") as? String == "remi", "\(status)")

        // A store never goes back to a lower version.
        let before = try snapshot("h", "u1")
        let back = try on("h", "u1", "migrate", "--schema", "remi-v1")
        #expect(isOneLineError(back), "\(back.stderr)")
        #expect(try snapshot("h", "u1") == before)
    }

    /// Device A migrates to version 2 while device B, still on version 1, renames a task and
    /// adds one, flat: B's sync migrates its side as it merges, and both end on one tree, at
    /// version 2, with both edits.
    @Test func aDeviceStillOnVersion1MergesWithAMigratedDevice() throws {
        #expect(try cairn("server", "init", folder.path + "/server", "u1").status == 0)
        #expect(try cairn("--home", folder.path + "/a", "init", "u1", "--schema", "remi-v1", "--remote", remote).status == 0)
        #expect(try on("a", "u1", "put", "users/u1", input: user).status == 0)
        #expect(try on("a", "u1", "put", "users/u1/profiles/\(phone)", input: profile).status == 0)
        #expect(try on("a", "u1", "put", "users/u1/tasks/t1", input: task("t1")).status == 0)
        #expect(try on("a", "u1", "sync").status == 0)
        #expect(try cairn("--home", folder.path + "/b", "clone", remote).status == 0)

        let migrated = try on("a", "u1", "migrate", "--schema", "remi")
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try on("a", "u1", "sync").status == 0)

        #expect(try on("b", "u1", "put", "users/u1/tasks/t1", input: task("t1", title: "Evening walk")).status == 0)
        let put = try on("b", "u1", "put", "users/u1/tasks/t2", input: task("t2"))
        #expect(put.status == 0, "\(put.stderr)")
        let merged = try on("b", "u1", "sync")
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("merged"), "\(merged.stdout)")
        // The merge moved B's files (its two tasks, its schema set): its summary says so.
        #expect(!merged.stdout.contains(", 0 files changed"), "\(merged.stdout)")
        let back = try on("a", "u1", "sync")
        #expect(back.status == 0, "\(back.stderr)")

        #expect(try git("a", "u1", "rev-parse", "HEAD^{tree}") == git("b", "u1", "rev-parse", "HEAD^{tree}"))
        for device in ["a", "b"] {
            #expect(try on(device, "u1", "ls", "users/u1/profiles/\(phone)/habits").stdout == "t1\nt2\n", "\(device)")
            let renamed = try on(device, "u1", "get", "users/u1/profiles/\(phone)/habits/t1").stdout
            #expect(field(renamed, "title") as? String == "Evening walk", "\(device): \(renamed)")
            let counts = try on(device, "u1", "get", "users/u1").stdout
            #expect(field(counts, "taskCount") as? Int == 2, "\(device): \(counts)")
            let flat = try on(device, "u1", "ls", "users/u1/tasks")
            #expect(flat.status != 0 || flat.stdout.isEmpty, "\(device): \(flat.stdout)")
            #expect(!FileManager.default.fileExists(atPath: folder.path + "/\(device)/u1/users/u1/tasks"), "\(device)")
            #expect(try git(device, "u1", "status", "--porcelain").isEmpty, "\(device)")
            let validate = try on(device, "u1", "validate")
            #expect(validate.status == 0, "\(device): \(validate.stdout)\(validate.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: folder.path + "/b/u1/.cairn/schema/migrations.json"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/b/u1/.cairn/schema/task.schema.json"))
        let habit = try on("b", "u1", "get", "users/u1/profiles/\(phone)/habits/t2").stdout
        #expect(field(habit, "id") as? String == "t2")
    }

    // MARK: - Retention

    /// The life-in-uk set with exam attempts kept to the latest 3 by completedAt.
    func makeKeptSet() throws {
        let set = folder.path + "/sets/life-in-uk-kept"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        for (name, bytes) in try shippedSchemaSet("life-in-uk").files {
            var text = String(decoding: bytes, as: UTF8.self)
            if name == "exam-attempt.schema.json" {
                let plain = #""x-cairn": {"path": "users/{uid}/examAttempts/{attemptId}", "checkpoint": "immediate"}"#
                #expect(text.contains(plain))
                text = text.replacingOccurrences(
                    of: plain,
                    with:
                        #""x-cairn": {"path": "users/{uid}/examAttempts/{attemptId}", "checkpoint": "immediate", "retention": {"keep": 3, "by": "completedAt"}}"#
                )
            }
            try Data(text.utf8).write(to: URL(fileURLWithPath: set + "/" + name))
        }
    }

    /// Five attempts where the set keeps three: `prune` removes the two oldest in one
    /// checkpoint (still in history), the server's hook lets exactly that deletion through but
    /// refuses deleting a kept attempt by hand, and a device that synced before the prune
    /// does not bring the removed attempts back.
    @Test func pruneKeepsTheLatestAttemptsAndNoDeviceBringsTheOthersBack() throws {
        try makeKeptSet()
        #expect(try cairn("server", "init", folder.path + "/server", "u1", "--schema", "life-in-uk-kept").status == 0)
        #expect(try cairn("--home", folder.path + "/a", "init", "u1", "--schema", "life-in-uk-kept", "--remote", remote).status == 0)
        for day in 1...5 {
            #expect(
                try on("a", "u1", "put", "users/u1/examAttempts/a\(day)", input: attempt("a\(day)", score: 80 + day, day: day)).status == 0)
        }
        #expect(try on("a", "u1", "sync").status == 0)
        #expect(try cairn("--home", folder.path + "/b", "clone", remote).status == 0)
        #expect(try on("a", "u1", "sync").stdout.hasPrefix("Already in sync"))

        let count = try commits("a", "u1")
        let pruned = try on("a", "u1", "prune")
        #expect(pruned.status == 0, "\(pruned.stderr)")
        #expect(pruned.stdout.hasPrefix("Checkpoint "), "\(pruned.stdout)")
        #expect(pruned.stdout.contains(": 2 documents removed by the retention of the schema set"), "\(pruned.stdout)")
        #expect(try commits("a", "u1") == count + 1)
        #expect(try on("a", "u1", "ls", "users/u1/examAttempts").stdout == "a3\na4\na5\n")
        #expect(try on("a", "u1", "log", "-n", "1").stdout.contains("Retention: 2 documents removed"))
        let message = try git("a", "u1", "log", "-1", "--format=%B")
        #expect(message.contains("removed users/u1/examAttempts/a1\nremoved users/u1/examAttempts/a2"), "\(message)")
        #expect(!message.contains("removed users/u1/examAttempts/a3"))
        let old = try on("a", "u1", "get", "users/u1/examAttempts/a1", "--at", "HEAD~1")
        #expect(old.status == 0 && field(old.stdout, "score") as? Int == 81, "\(old.stderr)")
        #expect(try on("a", "u1", "get", "users/u1/examAttempts/a2", "--at", "HEAD~1").status == 0)
        #expect(try on("a", "u1", "get", "users/u1/examAttempts/a1").status == 1)
        #expect(try on("a", "u1", "prune").stdout == "Nothing to prune.\n")
        #expect(try commits("a", "u1") == count + 1)
        #expect(try git("a", "u1", "status", "--porcelain").isEmpty)

        // git runs the server's hook for its own pushes: the prune's deletions are accepted…
        let push = try gitRun("a", "u1", "push", "origin", "main")
        #expect(push.status == 0, "\(push.stderr)")
        #expect(
            try runProcess("/usr/bin/git", ["--git-dir", remote, "rev-parse", "main"]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines) == git("a", "u1", "rev-parse", "HEAD"))
        // …but deleting a kept attempt by hand is not.
        #expect(try gitRun("a", "u1", "rm", "-q", "users/u1/examAttempts/a5.json").status == 0)
        #expect(try gitRun("a", "u1", "-c", "user.name=x", "-c", "user.email=x@x", "commit", "-qm", "by hand").status == 0)
        let refused = try gitRun("a", "u1", "push", "origin", "main")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("append-only"), "\(refused.stderr)")
        #expect(try gitRun("a", "u1", "reset", "-q", "--hard", "HEAD~1").status == 0)

        // Device B synced before the prune, and wrote a newer attempt offline.
        #expect(try on("b", "u1", "put", "users/u1/examAttempts/a6", input: attempt("a6", score: 90, day: 6)).status == 0)
        let merged = try on("b", "u1", "sync")
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(try on("a", "u1", "sync").status == 0)
        #expect(try git("a", "u1", "rev-parse", "HEAD^{tree}") == git("b", "u1", "rev-parse", "HEAD^{tree}"))
        for device in ["a", "b"] {
            #expect(try on(device, "u1", "ls", "users/u1/examAttempts").stdout == "a3\na4\na5\na6\n", "\(device)")
            #expect(try git(device, "u1", "status", "--porcelain").isEmpty, "\(device)")
        }
    }
}
