import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A push the server's hook refuses names the command that gets the store out, and that
/// command works: from the refusal to a clean sync, through a real HTTP server (lighttpd and
/// `git http-backend`, the repositories of `cairn server init` with Cairn's hook), with the
/// other unpushed documents reaching the server.
@Suite(.historiesVerified) struct RefusedPushWayOutTests {
    typealias Served = HTTPSyncTests.Served
    typealias Device = HTTPSyncTests.Device

    /// The `cairn …` command a refusal names: from `run: ` to the `, then` after it.
    static func namedCommand(_ stderr: String) -> [String]? {
        guard let start = stderr.range(of: "run: cairn "),
            let end = stderr.range(of: ", then sync again", range: start.upperBound..<stderr.endIndex)
        else { return nil }
        return stderr[start.upperBound..<end.lowerBound].split(separator: " ").map(String.init)
    }

    /// A phone whose store (life-in-uk) holds attempt a1, synced with the server.
    func publishedPhone(
        _ served: Served, password: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Device {
        let device = Device("phone")
        #expect(
            try device("init", "u1", "--schema", "life-in-uk", "--remote", served.url("u1", user: "u1")).status == 0,
            sourceLocation: sourceLocation)
        #expect(
            try device("put", "users/u1/examAttempts/a1", input: HTTPSyncTests.attempt("a1")).status == 0,
            sourceLocation: sourceLocation)
        #expect(try device("sync", "-q", password: password).status == 0, sourceLocation: sourceLocation)
        return device
    }

    /// A hand commit adds an attempt scoring 150, between two checkpoints of other documents:
    /// the sync is refused with one line naming `cairn restore` for that attempt; running it
    /// lets the next sync through, with every other unpushed document on the server.
    @Test(.runningTime(atMost: .seconds(180))) func aRefusedHandCommitIsDroppedByTheCommandTheRefusalNames() throws {
        let served = try Served(schema: "life-in-uk")
        defer { served.server.stop() }
        let password = HTTPSyncTests.passwords["u1"]!
        let device = try publishedPhone(served, password: password)
        let published = try served.main("u1")

        // Unpushed: a book checkpointed, the hand commit, an attempt checkpointed after it.
        #expect(try device("put", "users/u1/books/b1", input: HTTPSyncTests.book(["s1": 10])).status == 0)
        #expect(try device("checkpoint").status == 0)
        let file = device.home + "/u1/users/u1/examAttempts/a2.json"
        try HTTPSyncTests.attempt("a2", score: 150).write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try device.git("add", "users/u1/examAttempts/a2.json").status == 0)
        #expect(try device.git("commit", "-qm", "Add a2 by hand").status == 0)
        let handCommit = try device.head()
        HistoriesVerified.exempt(
            commit: handCommit, because: "a hand commit that breaks the schema, kept in history under the restore that undoes it")
        #expect(try device("put", "users/u1/examAttempts/a3", input: HTTPSyncTests.attempt("a3")).status == 0)
        #expect(try device("checkpoint").status == 0)

        let refused = try device("sync", "-q", password: password)
        #expect(refused.status == 1, "\(refused.status) \(refused.stderr)")
        #expect(HTTPSyncTests.isOneLine(refused.stderr), "\(refused.stderr)")
        #expect(
            refused.stderr.contains("users/u1/examAttempts/a2 breaks its schema (exam-attempt.schema.json) at /score"), "\(refused.stderr)")
        #expect(refused.stderr.contains("run: cairn restore users/u1/examAttempts/a2, then sync again"), "\(refused.stderr)")
        #expect(try served.main("u1") == published)
        // Refused again and again until the way out is taken: put cannot change an attempt.
        #expect(try device("put", "users/u1/examAttempts/a2", input: HTTPSyncTests.attempt("a2", score: 90)).status == 1)
        #expect(try device("sync", "-q", password: password).status == 1)

        let command = try #require(Self.namedCommand(refused.stderr))
        let restored = try runBounded(CLI.executable, ["--home", device.home] + command)
        #expect(restored.status == 0, "\(restored.stderr)")
        let synced = try device("sync", "-q", password: password)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(try served.main("u1") == device.head())
        let tree = try runBounded("/usr/bin/git", ["--git-dir", served.root + "/u1.git", "ls-tree", "-r", "--name-only", "main"]).stdout
        for kept in ["users/u1/examAttempts/a1.json", "users/u1/examAttempts/a3.json", "users/u1/books/b1.json"] {
            #expect(tree.contains(kept), "\(kept) reached the server: \(tree)")
        }
        #expect(!tree.contains("users/u1/examAttempts/a2.json"), "\(tree)")
        // History is kept: the refused commit is there, undone by a later checkpoint.
        #expect(try device.git("merge-base", "--is-ancestor", handCommit, "HEAD").status == 0)
        #expect(try device("validate").status == 0)
    }

    /// An attempt the server holds, changed by a hand commit, is refused as append-only; the
    /// named command takes it back to the server's version, and the next sync goes through.
    @Test(.runningTime(atMost: .seconds(180))) func aChangedPushedAttemptIsTakenBackToTheServersVersion() throws {
        let served = try Served(schema: "life-in-uk")
        defer { served.server.stop() }
        let password = HTTPSyncTests.passwords["u1"]!
        let device = try publishedPhone(served, password: password)

        let file = device.home + "/u1/users/u1/examAttempts/a1.json"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        try text.replacingOccurrences(of: "\"score\": 80", with: "\"score\": 95").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try device.git("commit", "-qam", "Raise the score by hand").status == 0)
        HistoriesVerified.exempt(
            commit: try device.head(), because: "a hand commit that changes an attempt, kept in history under the restore that undoes it")
        #expect(try device("put", "users/u1/books/b1", input: HTTPSyncTests.book(["s1": 10])).status == 0)

        let refused = try device("sync", "-q", password: password)
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(HTTPSyncTests.isOneLine(refused.stderr), "\(refused.stderr)")
        #expect(refused.stderr.contains("users/u1/examAttempts/a1 is append-only"), "\(refused.stderr)")
        let command = try #require(Self.namedCommand(refused.stderr))
        #expect(command == ["restore", "users/u1/examAttempts/a1"])
        #expect(try runBounded(CLI.executable, ["--home", device.home] + command).status == 0)
        let synced = try device("sync", "-q", password: password)
        #expect(synced.status == 0, "\(synced.stderr)")
        let served1 = try runBounded("/usr/bin/git", ["--git-dir", served.root + "/u1.git", "show", "main:users/u1/examAttempts/a1.json"])
            .stdout
        #expect(served1.contains("\"score\": 80"), "\(served1)")
        let book = try runBounded("/usr/bin/git", ["--git-dir", served.root + "/u1.git", "show", "main:users/u1/books/b1.json"])
        #expect(book.status == 0, "the book reached the server: \(book.stderr)")
    }
}
