import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// `cairn restore PATH…` takes documents back to their version on the remote (or at
/// `--source REV`), removing those it lacks, in a new checkpoint: the history stays, the other
/// unpushed documents stay, and an append-only document the remote never received may go.
@Suite(.historiesVerified) struct RestoreTests {
    let cli = CLI()
    var server: String { cli.scratch("server") + "/u1.git" }

    static func attempt(_ id: String, score: Int = 80) -> String {
        #"{"attemptId":"\#(id)","examId":"practice-1","status":"passed","score":\#(score)}"#
    }

    static let book = #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":10}},"updatedAt":10}"#
    static let bookRead =
        #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":10},"s2":{"completed":true,"updatedAt":20}},"updatedAt":20}"#

    /// A store of the life-in-uk set that pushed attempt a1 and book b1 to a path remote.
    func setUp() throws {
        #expect(try runProcess(CLI.executable, ["server", "init", cli.scratch("server"), "u1"]).status == 0)
        #expect(try cli("init", "u1", "--schema", "life-in-uk", "--remote", server).status == 0)
        #expect(try cli("put", "users/u1/examAttempts/a1", input: Self.attempt("a1")).status == 0)
        #expect(try cli("put", "users/u1/books/b1", input: Self.book).status == 0)
        #expect(try cli("sync", environment: ["CAIRN_SYNC_RETRY": "none"]).status == 0)
    }

    func serverFile(_ path: String) throws -> ProcessResult {
        try runProcess("/usr/bin/git", ["--git-dir", server, "show", "main:" + path])
    }

    @Test func documentsGoBackToTheRemotesVersionInANewCheckpointKeepingTheRest() throws {
        try setUp()
        // Unpushed: the book read further, a new attempt, and by hand a pushed attempt changed
        // and an attempt added.
        #expect(try cli("put", "users/u1/books/b1", input: Self.bookRead).status == 0)
        #expect(try cli("checkpoint").status == 0)
        #expect(try cli("put", "users/u1/examAttempts/a2", input: Self.attempt("a2")).status == 0)
        let a1 = cli.home + "/u1/users/u1/examAttempts/a1.json"
        let text = try String(contentsOfFile: a1, encoding: .utf8)
        try text.replacingOccurrences(of: "\"score\": 80", with: "\"score\": 95").write(toFile: a1, atomically: true, encoding: .utf8)
        try Self.attempt("a3", score: 150).write(toFile: cli.home + "/u1/users/u1/examAttempts/a3.json", atomically: true, encoding: .utf8)
        #expect(try cli.git("u1", "add", "-A").status == 0)
        #expect(try cli.git("u1", "commit", "-qm", "By hand").status == 0)
        HistoriesVerified.exemptHead(
            of: cli.home + "/u1", because: "a commit by plain git that breaks two rules stays in history under the restore that undoes it")
        let handCommit = try cli.git("u1", "rev-parse", "HEAD").stdout
        #expect(try cli("put", "users/u1/examAttempts/a4", input: Self.attempt("a4")).status == 0)

        let restored = try cli("restore", "users/u1/examAttempts/a1", "users/u1/examAttempts/a3")
        #expect(restored.status == 0, "\(restored.stderr)")
        let lines = restored.stdout.split(separator: "\n").map(String.init)
        // The pending write is checkpointed first, as a sync does, then the restore.
        #expect(lines.count == 4, "\(restored.stdout)")
        #expect(lines.first?.hasPrefix("Checkpoint ") == true && lines.first?.hasSuffix(": 1 added") == true, "\(restored.stdout)")
        #expect(
            lines.dropFirst().first?.hasPrefix("Restored 2 documents to the remote's version (origin/main ") == true, "\(restored.stdout)")
        #expect(
            lines.dropFirst(2) == ["  modified  users/u1/examAttempts/a1", "  deleted   users/u1/examAttempts/a3"], "\(restored.stdout)")
        #expect(try cli("get", "users/u1/examAttempts/a1").stdout.contains("\"score\": 80"))
        #expect(try cli("get", "users/u1/examAttempts/a3").status == 1)
        #expect(try cli("validate").status == 0)
        #expect(try cli.git("u1", "status", "--porcelain").stdout == "")
        // History is kept: the hand commit is an ancestor of the restore.
        #expect(
            try cli.git("u1", "merge-base", "--is-ancestor", handCommit.trimmingCharacters(in: .whitespacesAndNewlines), "HEAD").status == 0
        )
        let message = try cli.git("u1", "log", "-1", "--format=%B").stdout
        #expect(message.hasPrefix("Restore 2 documents to the remote's version (origin/main "), "\(message)")
        #expect(message.contains("modified users/u1/examAttempts/a1") && message.contains("deleted users/u1/examAttempts/a3"), "\(message)")

        let synced = try cli("sync", environment: ["CAIRN_SYNC_RETRY": "none"])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try serverFile("users/u1/examAttempts/a1.json").stdout.contains("\"score\": 80"))
        #expect(try serverFile("users/u1/examAttempts/a3.json").status != 0)
        for kept in ["users/u1/examAttempts/a2.json", "users/u1/examAttempts/a4.json"] {
            #expect(try serverFile(kept).status == 0, "\(kept) reached the remote")
        }
        #expect(try serverFile("users/u1/books/b1.json").stdout.contains("\"s2\""))
    }

    @Test func restoringWhatTheRemoteHoldsAlreadyChangesNothing() throws {
        try setUp()
        let head = try cli.git("u1", "rev-parse", "HEAD").stdout
        let result = try cli("restore", "users/u1/books/b1")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "Nothing to restore: users/u1/books/b1 is the remote's version already.\n", "\(result.stdout)")
        #expect(try cli.git("u1", "rev-parse", "HEAD").stdout == head)
    }

    @Test func anAttemptDeletedByHandComesBack() throws {
        try setUp()
        #expect(try cli.git("u1", "rm", "-q", "users/u1/examAttempts/a1.json").status == 0)
        #expect(try cli.git("u1", "commit", "-qm", "Delete a1 by hand").status == 0)
        HistoriesVerified.exemptHead(
            of: cli.home + "/u1",
            because: "an attempt deleted with plain git stays deleted in that commit, under the restore that brings it back")
        let result = try cli("restore", "users/u1/examAttempts/a1")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("\n  added     users/u1/examAttempts/a1\n"), "\(result.stdout)")
        #expect(try cli("get", "users/u1/examAttempts/a1").stdout.contains("\"score\": 80"))
        #expect(try cli.git("u1", "status", "--porcelain").stdout == "")
        #expect(try cli.git("u1", "diff", "--quiet", "origin/main", "HEAD").status == 0)
    }

    @Test func aSourceRevisionRestoresAnOlderCheckpoint() throws {
        try setUp()
        #expect(try cli("put", "users/u1/books/b1", input: Self.bookRead).status == 0)
        #expect(try cli("checkpoint").status == 0)
        let result = try cli("restore", "--source", "HEAD~1", "users/u1/books/b1")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Restored 1 document to its version at HEAD~1 ("), "\(result.stdout)")
        #expect(try cli("get", "users/u1/books/b1").stdout.contains("\"completedCount\": 1"))
        #expect(try cli("validate").status == 0)
    }

    @Test func refusalsSayWhyAndChangeNothing() throws {
        try setUp()
        #expect(try cli("put", "users/u1/examAttempts/a2", input: Self.attempt("a2")).status == 0)
        #expect(try cli("checkpoint").status == 0)
        try cli.expectRefused(["restore", "users/u2/books/b1"], saying: "outside the store of user u1")
        try cli.expectRefused(
            ["restore", "users/u1/books/nope"], saying: "there is no document at users/u1/books/nope here or on the remote")
        try cli.expectRefused(["restore", "--source", "no-such-rev", "users/u1/books/b1"], saying: "unknown revision")
        // An attempt the remote holds is never taken to another version than the remote's.
        #expect(try cli("put", "users/u1/books/b1", input: Self.bookRead).status == 0)
        #expect(try cli("checkpoint").status == 0)
        try cli.expectRefused(
            ["restore", "--source", "HEAD~3", "users/u1/examAttempts/a1"],
            saying:
                "users/u1/examAttempts/a1 is append-only (exam-attempt.schema.json): the remote holds it, so it can only be restored to the remote's version"
        )
        // A document the remote lacks cannot go while documents below it stay.
        #expect(try cli("put", "users/u1/books/b2", input: #"{"schemaVersion":1,"bookId":"b2","sections":{},"updatedAt":1}"#).status == 0)
        #expect(try cli("put", "users/u1/books/b2/notes/n1", input: #"{"text":"hello"}"#).status == 0)
        #expect(try cli("checkpoint").status == 0)
        try cli.expectRefused(
            ["restore", "users/u1/books/b2"],
            saying: "users/u1/books/b2 has documents below it that would stay (users/u1/books/b2/notes/n1)")
        let both = try cli("restore", "users/u1/books/b2", "users/u1/books/b2/notes/n1")
        #expect(both.status == 0, "\(both.stderr)")
        #expect(try cli("ls", "users/u1/books").stdout == "b1\n")

        // Without a remote, a revision must be named.
        try cli("init", "u3")
        try cli.expectRefused(["--user", "u3", "restore", "users/u3/books/b1"], saying: "has no remote", uid: "u3")
    }
}
