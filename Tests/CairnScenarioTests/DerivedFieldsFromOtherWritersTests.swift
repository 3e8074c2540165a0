import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Documents that other writers made — plain git, any git library — without computing their
/// derived fields (a book's `completedCount` and `lastSectionId`, a board's task counts) are
/// checked where they arrive: a sync computes them again in what it brings in, merges or is
/// about to push, and records the correction; the server's hook refuses them, naming the
/// document, the field, the value expected and the value found; `checkpoint --scan` computes
/// them in hand edits. `cairn validate` passes on every device afterwards.
@Suite(.historiesVerified) struct DerivedFieldsFromOtherWritersTests {
    let folder = TemporaryFolder("cairn-derived")
    /// A bare repository as any git host keeps it: no hook.
    var remote: String { folder.path + "/plain/u1.git" }

    @discardableResult
    func on(_ device: String, _ arguments: String..., input: String? = nil) throws -> ProcessResult {
        try runProcess(
            CLI.executable, ["--home", folder.path + "/" + device, "--user", "u1"] + arguments,
            input: input, environment: ["CAIRN_SYNC_RETRY": "none"])
    }

    /// `git -C STORE ARGS…`. A commit made so is another writer's, its derived fields stale on
    /// purpose: the audit at the end of the test leaves its findings out.
    @discardableResult
    func git(_ device: String, _ arguments: String...) throws -> ProcessResult {
        let result = try runProcess("/usr/bin/git", ["-C", store(device)] + arguments)
        if arguments.first == "commit" {
            HistoriesVerified.exemptHead(of: store(device), because: "another writer's commit, its derived fields stale on purpose")
        }
        return result
    }

    func store(_ device: String) -> String { folder.path + "/" + device + "/u1" }

    static let bookFile = "users/u1/books/b1.json"

    /// Book b1 with sections s1 (completed) and s2 (not), as Cairn writes it.
    static let book =
        #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":10},"s2":{"completed":false,"updatedAt":20}},"updatedAt":20}"#

    /// Marks s2 of the book completed by hand, in the file, leaving `completedCount` at 1 —
    /// what a script editing the JSON with any git library does.
    func markSecondSectionByHand(on device: String) throws {
        let path = store(device) + "/" + Self.bookFile
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\"completedCount\": 1"), "\(text)")
        let edited = text.replacingOccurrences(of: "\"completed\": false", with: "\"completed\": true")
        #expect(edited != text)
        try edited.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A phone that pushed the book to a plain bare repository, and a tablet restored from it.
    func setUp() throws {
        #expect(try runProcess("/usr/bin/git", ["init", "-q", "--bare", "--initial-branch=main", remote]).status == 0)
        #expect(
            try runProcess(
                CLI.executable,
                [
                    "--home", folder.path + "/phone", "init", "u1", "--schema", "life-in-uk",
                    "--remote", remote,
                ]
            ).status == 0)
        #expect(try on("phone", "put", "users/u1/books/b1", input: Self.book).status == 0)
        #expect(try on("phone", "sync").status == 0)
        let clone = try runProcess(CLI.executable, ["--home", folder.path + "/tablet", "clone", remote])
        #expect(clone.status == 0, "\(clone.stderr)")
    }

    /// The server's copy of the book.
    func serverBook() throws -> String {
        try runProcess("/usr/bin/git", ["--git-dir", remote, "show", "main:" + Self.bookFile]).stdout
    }

    @Test func aBookPushedWithPlainGitIsCorrectedByTheNextSyncOnEveryDevice() throws {
        try setUp()
        try markSecondSectionByHand(on: "phone")
        #expect(try git("phone", "commit", "-qam", "Mark s2 by hand").status == 0)
        #expect(try git("phone", "push", "-q", "origin", "main").status == 0)
        #expect(try serverBook().contains("\"completedCount\": 1"))

        // The tablet fast-forwards to the hand commit, corrects the book and pushes that.
        let synced = try on("tablet", "sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        let line = "corrected users/u1/books/b1: derived field completedCount was 1, expected 2 (book.schema.json)"
        #expect(synced.stdout.contains("fast-forwarded"), "\(synced.stdout)")
        #expect(synced.stdout.contains(line), "\(synced.stdout)")
        #expect(synced.stdout.contains("pushed 1 checkpoint"), "\(synced.stdout)")
        let message = try git("tablet", "log", "-1", "--format=%B").stdout
        #expect(message.contains("users/u1/books/b1: derived field completedCount was 1, expected 2 (book.schema.json)"), "\(message)")
        #expect(try on("tablet", "validate").status == 0)
        #expect(try serverBook().contains("\"completedCount\": 2"))
        #expect(try on("tablet", "get", "users/u1/books/b1").stdout.contains("\"completedCount\": 2"))
        #expect(try git("tablet", "status", "--porcelain").stdout == "")

        // The phone, which made the hand commit, corrects it in the checkpoint that starts
        // its sync (the branch moved by another git tool), and meets the tablet's correction.
        let phone = try on("phone", "sync")
        #expect(phone.status == 0, "\(phone.stderr)")
        #expect(phone.stdout.contains("corrected users/u1/books/b1: derived field completedCount was 1, expected 2"), "\(phone.stdout)")
        let validated = try on("phone", "validate")
        #expect(validated.status == 0, "\(validated.stdout)")
        #expect(try git("phone", "rev-parse", "HEAD^{tree}").stdout == git("tablet", "rev-parse", "HEAD^{tree}").stdout)
    }

    /// A store restored from a remote that holds such a book computes it again at once, and
    /// its next sync pushes the correction.
    @Test func aStoreRestoredAfterAPlainGitPushIsCorrected() throws {
        try setUp()
        try markSecondSectionByHand(on: "phone")
        #expect(try git("phone", "commit", "-qam", "Mark s2 by hand").status == 0)
        #expect(try git("phone", "push", "-q", "origin", "main").status == 0)

        let clone = try runProcess(CLI.executable, ["--home", folder.path + "/laptop", "clone", remote])
        #expect(clone.status == 0, "\(clone.stderr)")
        #expect(
            clone.stdout.contains(
                "  corrected users/u1/books/b1: derived field completedCount was 1, expected 2 (book.schema.json) (cairn sync pushes the correction)"
            ), "\(clone.stdout)")
        #expect(try on("laptop", "validate").status == 0)
        #expect(try git("laptop", "status", "--porcelain").stdout == "")
        #expect(try on("laptop", "status").stdout.contains("1 checkpoint not pushed"))
        let synced = try on("laptop", "sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stdout.contains("pushed 1 checkpoint"), "\(synced.stdout)")
        #expect(try serverBook().contains("\"completedCount\": 2"))
    }

    @Test func aHandCommitIsCorrectedBeforeItIsPushedAndWhereItIsMerged() throws {
        try setUp()
        // The phone commits the book by hand and syncs: the correction goes out with it.
        try markSecondSectionByHand(on: "phone")
        #expect(try git("phone", "commit", "-qam", "Mark s2 by hand").status == 0)
        let pushed = try on("phone", "sync")
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(pushed.stdout.contains("corrected users/u1/books/b1: derived field completedCount was 1, expected 2"), "\(pushed.stdout)")
        #expect(pushed.stdout.contains("pushed 2 checkpoints"), "\(pushed.stdout)")
        #expect(try serverBook().contains("\"completedCount\": 2"))
        #expect(try on("phone", "validate").status == 0)

        // Another hand commit reaches the server with plain git while the tablet has a
        // checkpoint of its own: the tablet merges, then corrects.
        let path = store("phone") + "/" + Self.bookFile
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(
            of: "\"completed\": true,\n      \"updatedAt\": 20", with: "\"completed\": false,\n      \"updatedAt\": 30"
        )
        .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try git("phone", "commit", "-qam", "Unmark s2 by hand").status == 0)
        #expect(try git("phone", "push", "-q", "origin", "main").status == 0)
        #expect(
            try on(
                "tablet", "put", "users/u1/examAttempts/a1",
                input: #"{"attemptId":"a1","examId":"practice-1","status":"passed","score":80}"#
            ).status == 0)
        let merged = try on("tablet", "sync")
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("merged"), "\(merged.stdout)")
        #expect(merged.stdout.contains("corrected users/u1/books/b1: derived field completedCount was 2, expected 1"), "\(merged.stdout)")
        #expect(try serverBook().contains("\"completedCount\": 1"))
        #expect(try on("tablet", "validate").status == 0)
        #expect(try on("phone", "sync").status == 0)
        #expect(try on("phone", "validate").status == 0)
    }

    /// A phone with the board app's set, board b1 and `tasks` (ID, completed) put and synced
    /// to a plain bare repository, and a tablet restored from it.
    func boardOnPhoneAndTablet(tasks: [(String, Bool)]) throws {
        #expect(try runProcess("/usr/bin/git", ["init", "-q", "--bare", "--initial-branch=main", remote]).status == 0)
        #expect(
            try runProcess(
                CLI.executable,
                [
                    "--home", folder.path + "/phone", "init", "u1", "--schema", "oybc",
                    "--remote", remote,
                ]
            ).status == 0)
        let board =
            #"{"id":"b1","userId":"u1","name":"Habits","status":"active","boardSize":3,"timeframe":"monthly","startDate":"2026-11-01","endDate":"2026-11-30","centerSquareType":"free","isRandomized":false,"totalTasks":0,"completedTasks":0,"completionPercentage":0,"linesCompleted":0,"createdAt":"2026-11-01T08:00:00Z","updatedAt":"2026-11-01T08:00:00Z","version":1,"isDeleted":false}"#
        #expect(try on("phone", "put", "users/u1/boards/b1", input: board).status == 0)
        for (id, done) in tasks {
            let task =
                #"{"id":"\#(id)","boardId":"b1","taskId":"\#(id)","position":0,"isCompleted":\#(done),"isDeleted":false,"version":1,"createdAt":"2026-11-01T08:00:00Z","updatedAt":"2026-11-01T08:00:00Z"}"#
            #expect(try on("phone", "put", "users/u1/boards/b1/boardTasks/\(id)", input: task).status == 0)
        }
        #expect(try on("phone", "sync").status == 0)
        #expect(try runProcess(CLI.executable, ["--home", folder.path + "/tablet", "clone", remote]).status == 0)
    }

    /// Counts of other documents too: a task added to a board by hand leaves the board's
    /// stats behind, and the device that receives it counts again.
    @Test func aBoardsCountsAreCorrectedWhenATaskArrivesFromAnotherWriter() throws {
        try boardOnPhoneAndTablet(tasks: [])
        let task =
            #"{"id":"t1","boardId":"b1","taskId":"t1","position":0,"isCompleted":true,"isDeleted":false,"version":1,"createdAt":"2026-11-01T08:00:00Z","updatedAt":"2026-11-01T08:00:00Z"}"#
        let file = store("phone") + "/users/u1/boards/b1/boardTasks/t1.json"
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try task.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try git("phone", "add", "-A").status == 0)
        #expect(try git("phone", "commit", "-qm", "A task by hand").status == 0)
        #expect(try git("phone", "push", "-q", "origin", "main").status == 0)

        let synced = try on("tablet", "sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(
            synced.stdout.contains("corrected users/u1/boards/b1: derived field totalTasks was 0, expected 1 (board.schema.json)"),
            "\(synced.stdout)")
        #expect(
            synced.stdout.contains("corrected users/u1/boards/b1: derived field completedTasks was 0, expected 1 (board.schema.json)"),
            "\(synced.stdout)")
        let validated = try on("tablet", "validate")
        #expect(validated.status == 0, "\(validated.stdout)")
    }

    /// A board of two completed tasks and an open one on both devices; then the phone
    /// pushes, with plain git, a schema set whose `completedTasks` counts open tasks.
    func boardWhoseSetCountsOpenTasksPushedWithGit() throws {
        try boardOnPhoneAndTablet(tasks: [("t1", true), ("t2", true), ("t3", false)])
        let schema = store("phone") + "/.cairn/schema/board.schema.json"
        let text = try String(contentsOfFile: schema, encoding: .utf8)
        let edited = text.replacingOccurrences(of: "\"isCompleted\": true,", with: "\"isCompleted\": false,")
        #expect(edited != text)
        try edited.write(toFile: schema, atomically: true, encoding: .utf8)
        #expect(try git("phone", "commit", "-qam", "Count open tasks").status == 0)
        #expect(try git("phone", "push", "-q", "origin", "main").status == 0)
    }

    /// A schema set that counts otherwise (completed tasks become open ones), pushed with
    /// plain git: no task changed, yet the board's counts mean something else now. The sync
    /// that brings the set checks every document, not only those that changed.
    @Test func aCountDefinedOtherwiseIsCountedAgainWhereTheSetArrives() throws {
        try boardWhoseSetCountsOpenTasksPushedWithGit()
        let synced = try on("tablet", "sync")
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(
            synced.stdout.contains("corrected users/u1/boards/b1: derived field completedTasks was 2, expected 1 (board.schema.json)"),
            "\(synced.stdout)")
        let validated = try on("tablet", "validate")
        #expect(validated.status == 0, "\(validated.stdout)")
    }

    /// The same set brought by a plain `git pull` into the tablet's store: the next
    /// checkpoint finds the branch moved by another git tool, and counts every owner again
    /// under the set now in place, as a sync would have.
    @Test func aCountDefinedOtherwiseAndPulledWithGitIsCountedAgainAtTheNextCheckpoint() throws {
        try boardWhoseSetCountsOpenTasksPushedWithGit()

        let pulled = try git("tablet", "pull", "-q", "--ff-only", "origin", "main")
        #expect(pulled.status == 0, "\(pulled.stderr)")
        let checkpoint = try on("tablet", "checkpoint")
        #expect(checkpoint.status == 0, "\(checkpoint.stderr)")
        #expect(
            checkpoint.stdout.contains("corrected users/u1/boards/b1: derived field completedTasks was 2, expected 1 (board.schema.json)"),
            "\(checkpoint.stdout)")
        let validated = try on("tablet", "validate")
        #expect(validated.status == 0, "\(validated.stdout)")
        #expect(try git("tablet", "status", "--porcelain").stdout == "")
    }

    /// The same set written by hand over the schema file, in place (its folder's stamp
    /// unchanged), and not committed: `checkpoint --scan` reads the set again, counts every
    /// owner under it and commits both, once.
    @Test func aSchemaRewrittenInPlaceIsCountedByEveryOwnerAtAScan() throws {
        try boardOnPhoneAndTablet(tasks: [("t1", true), ("t2", true), ("t3", false)])
        let schema = store("tablet") + "/.cairn/schema/board.schema.json"
        let text = try String(contentsOfFile: schema, encoding: .utf8)
        try text.replacingOccurrences(of: "\"isCompleted\": true,", with: "\"isCompleted\": false,")
            .write(toFile: schema, atomically: false, encoding: .utf8)
        let scanned = try on("tablet", "checkpoint", "--scan")
        #expect(scanned.status == 0, "\(scanned.stderr)")
        let line = "corrected users/u1/boards/b1: derived field completedTasks was 2, expected 1 (board.schema.json)"
        #expect(scanned.stdout.components(separatedBy: line).count == 2, "\(scanned.stdout)")
        #expect(try on("tablet", "validate").status == 0)
        #expect(try git("tablet", "status", "--porcelain").stdout == "")
    }

    /// A task committed with plain git on the tablet itself (no Cairn involved): the
    /// checkpoint that follows counts the board again.
    @Test func aTaskCommittedWithGitIsCountedAtTheNextCheckpoint() throws {
        try boardOnPhoneAndTablet(tasks: [("t1", true)])
        let task =
            #"{"id":"t2","boardId":"b1","taskId":"t2","position":0,"isCompleted":true,"isDeleted":false,"version":1,"createdAt":"2026-11-01T08:00:00Z","updatedAt":"2026-11-01T08:00:00Z"}"#
        try task.write(toFile: store("tablet") + "/users/u1/boards/b1/boardTasks/t2.json", atomically: true, encoding: .utf8)
        #expect(try git("tablet", "add", "-A").status == 0)
        #expect(try git("tablet", "commit", "-qm", "A task by hand").status == 0)
        #expect(try on("tablet", "validate").status != 0)
        let checkpoint = try on("tablet", "checkpoint")
        #expect(checkpoint.status == 0, "\(checkpoint.stderr)")
        #expect(
            checkpoint.stdout.contains("corrected users/u1/boards/b1: derived field completedTasks was 1, expected 2 (board.schema.json)"),
            "\(checkpoint.stdout)")
        #expect(try on("tablet", "validate").status == 0)
    }

    /// The server's hook refuses a push whose derived fields are wrong, one line for each
    /// field, naming the document, the field, the value expected and the value found.
    @Test func theHookRefusesWrongDerivedFieldsNamingDocumentFieldExpectedAndFound() throws {
        let server = folder.path + "/server/u1.git"
        #expect(try runProcess(CLI.executable, ["server", "init", folder.path + "/server", "u1", "--schema", "life-in-uk"]).status == 0)
        #expect(
            try runProcess(
                CLI.executable,
                [
                    "--home", folder.path + "/phone", "init", "u1", "--schema", "life-in-uk",
                    "--remote", server,
                ]
            ).status == 0)
        #expect(try on("phone", "put", "users/u1/books/b1", input: Self.book).status == 0)
        // The first push goes with git: libgit2 runs no hook for a path remote.
        #expect(try on("phone", "checkpoint").status == 0)
        let first = try git("phone", "push", "origin", "main")
        #expect(first.status == 0, "\(first.stderr)")
        let before = try runProcess("/usr/bin/git", ["--git-dir", server, "rev-parse", "main"]).stdout

        // s2 marked completed and made the latest by hand: both derived fields are stale.
        let path = store("phone") + "/" + Self.bookFile
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try text.replacingOccurrences(
            of: "\"completed\": true,\n      \"updatedAt\": 10", with: "\"completed\": true,\n      \"updatedAt\": 40"
        )
        .replacingOccurrences(of: "\"completed\": false", with: "\"completed\": true")
        .write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try git("phone", "commit", "-qam", "By hand").status == 0)
        let push = try git("phone", "push", "origin", "main")
        #expect(push.status != 0)
        // git pads the lines of the remote with spaces.
        let said = push.stderr.split(separator: "\n").filter { $0.hasPrefix("remote: cairn: ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(
            said == [
                "remote: cairn: users/u1/books/b1: derived field completedCount is 1, expected 2 (book.schema.json)",
                "remote: cairn: users/u1/books/b1: derived field lastSectionId is \"s2\", expected \"s1\" (book.schema.json)",
            ], "\(push.stderr)")
        #expect(try runProcess("/usr/bin/git", ["--git-dir", server, "rev-parse", "main"]).stdout == before)

        // The way out the lines point to: a sync with Cairn computes them before pushing (a
        // path remote runs no hook, so git pushes what Cairn corrected).
        #expect(try on("phone", "sync").stdout.contains("corrected users/u1/books/b1"))
        let hook = try runProcess("/usr/bin/git", ["--git-dir", server, "show", "main:" + Self.bookFile]).stdout
        #expect(hook.contains("\"completedCount\": 2"), "\(hook)")
    }

    /// A hand edit found by `checkpoint --scan` gets its derived fields computed, and the
    /// checkpoint says what it corrected.
    @Test func checkpointScanComputesTheDerivedFieldsOfHandEdits() throws {
        #expect(try runProcess(CLI.executable, ["--home", folder.path + "/phone", "init", "u1", "--schema", "life-in-uk"]).status == 0)
        #expect(try on("phone", "put", "users/u1/books/b1", input: Self.book).status == 0)
        #expect(try on("phone", "checkpoint").status == 0)
        try markSecondSectionByHand(on: "phone")
        #expect(try on("phone", "validate").status != 0)

        let scanned = try on("phone", "checkpoint", "--scan")
        #expect(scanned.status == 0, "\(scanned.stderr)")
        #expect(
            scanned.stdout.contains("corrected users/u1/books/b1: derived field completedCount was 1, expected 2 (book.schema.json)"),
            "\(scanned.stdout)")
        let message = try git("phone", "log", "-1", "--format=%B").stdout
        #expect(message.contains("users/u1/books/b1: derived field completedCount was 1, expected 2 (book.schema.json)"), "\(message)")
        #expect(try String(contentsOfFile: store("phone") + "/" + Self.bookFile, encoding: .utf8).contains("\"completedCount\": 2"))
        #expect(try on("phone", "validate").status == 0)
        #expect(try git("phone", "status", "--porcelain").stdout == "")
        #expect(try git("phone", "show", "HEAD:" + Self.bookFile).stdout.contains("\"completedCount\": 2"))
    }

    @Test func aCheckpointAfterGitAddComputesTheDerivedFieldsToo() throws {
        #expect(try runProcess(CLI.executable, ["--home", folder.path + "/phone", "init", "u1", "--schema", "life-in-uk"]).status == 0)
        #expect(try on("phone", "put", "users/u1/books/b1", input: Self.book).status == 0)
        #expect(try on("phone", "checkpoint").status == 0)
        try markSecondSectionByHand(on: "phone")
        #expect(try git("phone", "add", Self.bookFile).status == 0)

        let checkpoint = try on("phone", "checkpoint")
        #expect(checkpoint.status == 0, "\(checkpoint.stderr)")
        #expect(
            checkpoint.stdout.contains("corrected users/u1/books/b1: derived field completedCount was 1, expected 2 (book.schema.json)"),
            "\(checkpoint.stdout)")
        #expect(try git("phone", "show", "HEAD:" + Self.bookFile).stdout.contains("\"completedCount\": 2"))
        #expect(try git("phone", "status", "--porcelain").stdout == "")
        #expect(try on("phone", "validate").status == 0)
    }
}
