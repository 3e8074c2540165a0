import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Devices of one user syncing through a bare repository on this machine (a path remote):
/// restore on a new device, offline edits converging, concurrent syncs, refused data.
@Suite(.historiesVerified) struct TwoDevicesOfflineTests {
    let folder = TemporaryFolder("cairn-devices")
    let environment = ["CAIRN_SYNC_RETRY": "none"]

    var remote: String { folder.path + "/server/u1.git" }

    /// Runs the tool on a device's home (each device is a home), for user u1.
    @discardableResult
    func on(_ device: String, _ arguments: String..., input: String? = nil) throws -> ProcessResult {
        try runProcess(
            CLI.executable, ["--home", folder.path + "/" + device, "--user", "u1"] + arguments,
            input: input, environment: environment)
    }

    func git(_ device: String, _ arguments: String...) throws -> String {
        try runProcess("/usr/bin/git", ["-C", folder.path + "/" + device + "/u1"] + arguments).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func attempt(_ id: String, score: Int = 80) -> String {
        #"{"attemptId":"\#(id)","examId":"practice-1","status":"passed","score":\#(score)}"#
    }

    /// A server repository and a first device that pushed its store there.
    func setUp() throws {
        #expect(try runProcess(CLI.executable, ["server", "init", folder.path + "/server", "u1"]).status == 0)
        #expect(
            try runProcess(
                CLI.executable,
                [
                    "--home", folder.path + "/phone", "init", "u1", "--schema", "life-in-uk",
                    "--remote", remote,
                ]
            ).status == 0)
        #expect(try on("phone", "sync").status == 0)
    }

    @Test func aNewDeviceRestoresTheUserAndBothConvergeAfterOfflineEdits() throws {
        try setUp()
        try on("phone", "put", "users/u1/examAttempts/a1", input: attempt("a1"))
        try on(
            "phone", "put", "users/u1/books/b1",
            input: #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":10}},"updatedAt":10}"#)
        #expect(try on("phone", "sync").stdout.contains("pushed 2 checkpoints") == false)
        let clone = try runProcess(CLI.executable, ["--home", folder.path + "/tablet", "clone", remote], environment: environment)
        #expect(clone.status == 0, "\(clone.stderr)")
        #expect(clone.stdout.contains("Restored the store of user u1"))
        #expect(try on("tablet", "get", "users/u1/examAttempts/a1").stdout.contains("\"score\": 80"))
        #expect(try git("tablet", "config", "merge.cairn.driver").contains("merge-driver"))

        // Offline on both: new attempts, and the same book's sections, one of them on both.
        try on("phone", "put", "users/u1/examAttempts/a2", input: attempt("a2"))
        try on(
            "phone", "put", "users/u1/books/b1",
            input:
                #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":false,"updatedAt":20},"s2":{"completed":true,"updatedAt":21}},"updatedAt":21}"#
        )
        try on("tablet", "put", "users/u1/examAttempts/a3", input: attempt("a3"))
        try on(
            "tablet", "put", "users/u1/books/b1",
            input:
                #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":30},"s3":{"completed":true,"updatedAt":15}},"updatedAt":30}"#
        )
        #expect(try on("phone", "sync").status == 0)
        let merged = try on("tablet", "sync")
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("merged"))
        #expect(merged.stdout.contains("users/u1/books/b1#/sections/s1 [lww(updatedAt)] kept"))
        #expect(try on("phone", "sync").stdout.contains("fast-forwarded"))

        #expect(try git("phone", "rev-parse", "HEAD^{tree}") == git("tablet", "rev-parse", "HEAD^{tree}"))
        #expect(
            try git("phone", "rev-parse", "HEAD")
                == runProcess("/usr/bin/git", ["--git-dir", remote, "rev-parse", "main"]).stdout.trimmingCharacters(
                    in: .whitespacesAndNewlines))
        for device in ["phone", "tablet"] {
            #expect(try on(device, "ls", "users/u1/examAttempts").stdout == "a1\na2\na3\n")
            let book = try on(device, "get", "users/u1/books/b1").stdout
            #expect(book.contains("\"s2\"") && book.contains("\"s3\"") && book.contains("\"completedCount\": 3"))
            #expect(try git(device, "status", "--porcelain").isEmpty)
            #expect(try runProcess("/usr/bin/git", ["-C", folder.path + "/\(device)/u1", "fsck", "--strict"]).status == 0)
        }
        // What the policy replaced is listed, and is in the history of the merge's parents.
        let conflicts = try on("phone", "conflicts").stdout
        #expect(conflicts.contains("replaced { \"completed\": false, \"updatedAt\": 20 }"))
        #expect(try on("phone", "status").stdout.contains("every checkpoint pushed"))
    }

    @Test func devicesSyncingAtOnceLoseNothing() throws {
        try setUp()
        let devices = ["d1", "d2", "d3", "d4"]
        for device in devices {
            #expect(
                try runProcess(CLI.executable, ["--home", folder.path + "/" + device, "clone", remote], environment: environment).status
                    == 0)
            for index in 0..<3 {
                try on(device, "put", "users/u1/examAttempts/\(device)-\(index)", input: attempt("\(device)-\(index)"))
            }
        }
        let processes = try devices.map { device -> ChildProcess in
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: CLI.executable)
            process.arguments = ["--home", folder.path + "/" + device, "--user", "u1", "sync", "-q"]
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "\(processes.map(\.terminationStatus))")
        for device in devices + ["phone"] { #expect(try on(device, "sync").status == 0) }
        let tree = try git("phone", "rev-parse", "HEAD^{tree}")
        let expected = devices.flatMap { device in (0..<3).map { "\(device)-\($0)" } }.sorted()
        for device in devices {
            #expect(try git(device, "rev-parse", "HEAD^{tree}") == tree, "\(device)")
            #expect(try on(device, "ls", "users/u1/examAttempts").stdout.split(separator: "\n").map(String.init) == expected)
        }
    }

    @Test func dataOfAnotherUserFetchedIsRefusedAndTheStoreStaysAsItWas() throws {
        // A plain bare repository (no hook) that someone pushed a foreign file to with git.
        #expect(try runProcess("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", remote]).status == 0)
        #expect(try runProcess(CLI.executable, ["--home", folder.path + "/phone", "init", "u1", "--remote", remote]).status == 0)
        #expect(try on("phone", "sync").status == 0)
        let intruder = folder.path + "/intruder"
        #expect(try runProcess("/usr/bin/git", ["clone", "-q", remote, intruder]).status == 0)
        try FileManager.default.createDirectory(atPath: intruder + "/users/u2", withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: URL(fileURLWithPath: intruder + "/users/u2/x.json"))
        for arguments in [
            ["add", "-A"], ["-c", "user.name=x", "-c", "user.email=x@x", "commit", "-qm", "foreign"], ["push", "-q", "origin", "main"],
        ] {
            #expect(try runProcess("/usr/bin/git", ["-C", intruder] + arguments).status == 0)
        }
        HistoriesVerified.exemptHead(
            of: intruder, because: "another user's file pushed by hand to a server without a hook, for the device to refuse")
        try on("phone", "put", "users/u1/examAttempts/a1", input: attempt("a1"))
        let before = try git("phone", "rev-parse", "HEAD")
        let tracking = try git("phone", "rev-parse", "origin/main")
        let sync = try on("phone", "sync")
        #expect(sync.status == 1)
        #expect(sync.stderr.contains("users/u2/x.json belongs to another user than u1"), "\(sync.stderr)")
        #expect(sync.stderr.split(separator: "\n").count == 1)
        #expect(try git("phone", "rev-parse", "HEAD^") == before, "the pending write was checkpointed and kept")
        #expect(try git("phone", "rev-parse", "origin/main") == tracking)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/phone/u1/users/u2"))
        #expect(try git("phone", "status", "--porcelain").isEmpty)
    }

    @Test func remotesThatCannotBeUsedSayWhy() throws {
        #expect(try runProcess(CLI.executable, ["--home", folder.path + "/phone", "init", "u1"]).status == 0)
        let none = try on("phone", "sync")
        #expect(none.status == 1 && none.stderr.contains("no remote; set one with: cairn remote set URL"))
        #expect(try on("phone", "remote", "set", "git://127.0.0.1/u1.git").status == 0)
        let readOnly = try on("phone", "sync")
        #expect(readOnly.status == 1 && readOnly.stderr.contains("read-only"))
        #expect(try on("phone", "remote", "set", "https://u1:secret@127.0.0.1:9/git/u1.git").stdout.contains("password was not stored"))
        #expect(try git("phone", "config", "remote.origin.url") == "https://u1@127.0.0.1:9/git/u1.git")
        let unreachable = try on("phone", "sync")
        #expect(unreachable.status == 75, "\(unreachable.stderr)")
        #expect(unreachable.stderr.hasPrefix("cairn: cannot fetch from https://u1@127.0.0.1:9/git/u1.git"))
        #expect(try on("phone", "remote", "set", "ftp://host/x").status == 1)
        let missing = try runProcess(
            CLI.executable, ["--home", folder.path + "/laptop", "clone", folder.path + "/nowhere/u1.git"], environment: environment)
        #expect(missing.status == 1 && missing.stderr.contains("no repository there"), "\(missing.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/laptop/u1"))
        #expect(try runProcess("/usr/bin/git", ["init", "-q", "--bare", "-b", "main", folder.path + "/empty/u1.git"]).status == 0)
        let empty = try runProcess(
            CLI.executable, ["--home", folder.path + "/laptop", "clone", folder.path + "/empty/u1.git"], environment: environment)
        #expect(empty.status == 1 && empty.stderr.contains("holds no progress yet"), "\(empty.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/laptop/u1"))
    }

    /// A document edited by hand (no scan yet) that the remote changed too is never lost:
    /// the sync stops and says how to record the edit; after the scan it merges.
    @Test func aHandEditIsNeverOverwrittenBySync() throws {
        try setUp()
        try on(
            "phone", "put", "users/u1/books/b1",
            input: #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":10}},"updatedAt":10}"#)
        try on("phone", "sync")
        #expect(try runProcess(CLI.executable, ["--home", folder.path + "/tablet", "clone", remote], environment: environment).status == 0)
        try on(
            "phone", "put", "users/u1/books/b1",
            input:
                #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":10},"s2":{"completed":true,"updatedAt":20}},"updatedAt":20}"#
        )
        try on("phone", "sync")
        let file = folder.path + "/tablet/u1/users/u1/books/b1.json"
        let edited =
            #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":10},"s3":{"completed":true,"updatedAt":30}},"updatedAt":30}"#
        try Data(edited.utf8).write(to: URL(fileURLWithPath: file))
        let head = try git("tablet", "rev-parse", "HEAD")
        let refused = try on("tablet", "sync")
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "cairn: users/u1/books/b1.json was changed by hand since the last checkpoint, and the sync would replace it; record the edit with cairn checkpoint --scan, then sync again\n"
        )
        #expect(try String(contentsOfFile: file, encoding: .utf8) == edited)
        #expect(try git("tablet", "rev-parse", "HEAD") == head)
        #expect(try on("tablet", "checkpoint", "--scan").status == 0)
        #expect(try on("tablet", "sync").status == 0)
        let book = try on("tablet", "get", "users/u1/books/b1").stdout
        #expect(book.contains("\"s2\"") && book.contains("\"s3\""))
    }

    /// Transfer progress shows on a terminal only: `script` gives the tool one.
    @Test func progressShowsOnATerminalOnly() throws {
        try setUp()
        try on("phone", "put", "users/u1/examAttempts/a1", input: attempt("a1"))
        let command = "'\(CLI.executable)' --home '\(folder.path)/phone' sync"
        let terminal = try runProcess("/usr/bin/script", ["-qec", command, "/dev/null"], environment: environment)
        #expect(terminal.status == 0)
        #expect(terminal.stdout.contains("Sending objects: 100%"), "\(terminal.stdout)")
        #expect(terminal.stdout.contains("Synced at"))
        try on("phone", "put", "users/u1/examAttempts/a2", input: attempt("a2"))
        let quiet = try runProcess("/usr/bin/script", ["-qec", command + " -q", "/dev/null"], environment: environment)
        #expect(quiet.status == 0 && !quiet.stdout.contains("objects"), "\(quiet.stdout)")
        try on("phone", "put", "users/u1/examAttempts/a3", input: attempt("a3"))
        let piped = try on("phone", "sync")
        #expect(piped.status == 0 && piped.stderr.isEmpty, "\(piped.stderr)")
    }

    /// A sync killed while it rewrote the working tree is finished by the next command.
    @Test func aMoveOfTheWorkingTreeCutShortIsFinishedByTheNextCommand() throws {
        try setUp()
        #expect(try runProcess(CLI.executable, ["--home", folder.path + "/tablet", "clone", remote], environment: environment).status == 0)
        try on("phone", "put", "users/u1/examAttempts/a1", input: attempt("a1"))
        try on("phone", "put", "users/u1/examAttempts/a2", input: attempt("a2"))
        try on("phone", "sync")
        #expect(try on("tablet", "sync").stdout.contains("fast-forwarded"))
        let old = try git("tablet", "rev-parse", "HEAD~1")
        let new = try git("tablet", "rev-parse", "HEAD")
        // As if the process died after writing one file: the branch still on the old commit.
        _ = try git("tablet", "update-ref", "refs/heads/main", old)
        try FileManager.default.removeItem(atPath: folder.path + "/tablet/u1/users/u1/examAttempts/a2.json")
        try Data("\(old) \(new)\n".utf8).write(to: URL(fileURLWithPath: folder.path + "/tablet/u1/.git/cairn/moving"))
        #expect(try on("tablet", "checkpoint").status == 0)
        #expect(try git("tablet", "rev-parse", "HEAD") == new)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/tablet/u1/users/u1/examAttempts/a2.json"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/tablet/u1/.git/cairn/moving"))
        #expect(try git("tablet", "status", "--porcelain").isEmpty)
    }

    /// `cairn merge-tree` shows the merge a sync will make, without changing the store: the
    /// same tree, the same decisions, and the branch, files and status untouched.
    @Test func mergeTreePreviewsTheMergeOfASync() throws {
        try setUp()
        let clone = try runProcess(CLI.executable, ["--home", folder.path + "/tablet", "clone", remote], environment: environment)
        #expect(clone.status == 0, "\(clone.stderr)")
        try on(
            "phone", "put", "users/u1/books/b1",
            input: #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":20}},"updatedAt":20}"#)
        try on(
            "tablet", "put", "users/u1/books/b1",
            input:
                #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":false,"updatedAt":30},"s2":{"completed":true,"updatedAt":25}},"updatedAt":30}"#
        )
        #expect(try on("phone", "sync").status == 0)
        #expect(try on("tablet", "checkpoint").status == 0)
        _ = try git("tablet", "fetch", "-q", "origin")
        let head = try git("tablet", "rev-parse", "HEAD")

        let preview = try on("tablet", "merge-tree", "main", "origin/main")
        #expect(preview.status == 0, "\(preview.stderr)")
        let lines = preview.stdout.split(separator: "\n").map(String.init)
        let tree = try #require(lines.first)
        #expect(tree.count == 40)
        #expect(lines.contains { $0.contains("users/u1/books/b1#/sections/s1") }, "\(preview.stdout)")
        #expect(try git("tablet", "rev-parse", "HEAD") == head)
        #expect(try git("tablet", "status", "--porcelain").isEmpty)
        // The tree is written: git reads the merged book from it.
        #expect(try git("tablet", "show", "\(tree):users/u1/books/b1.json").contains("\"s2\""))

        #expect(try on("tablet", "sync").status == 0)
        #expect(try git("tablet", "rev-parse", "HEAD^{tree}") == tree)

        let unknown = try on("tablet", "merge-tree", "main", "no-such-branch")
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("unknown revision \"no-such-branch\""), "\(unknown.stderr)")
    }
}
