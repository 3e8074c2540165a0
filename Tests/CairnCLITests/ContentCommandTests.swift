import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// `cairn content` as a student's device runs it against a server folder made by
/// `cairn server content init`: download with the seed's storage screen, read offline, a new
/// version, limits, removal, and bad input answered in one line with the cache as it was.
@Suite(.historiesVerified) struct ContentCommandTests {
    static let assessment =
        #"{"title": "Algebra Quiz", "timeLimitSeconds": 600, "publishedAt": "2026-11-23T10:00:00Z", "questionCount": 1}"#
    static let question = #"{"type": "true_false", "order": 1, "prompt": "2 + 2 = 4", "correctAnswers": ["true"], "points": 1}"#

    /// A home with u1 syncing to `server/u1.git`, and the collection `assessments` with a1
    /// published (version 1) and a2 made but never published.
    static func served() throws -> CLI {
        let cli = CLI()
        let server = cli.scratch("server")
        #expect(try cli("server", "init", server, "u1").status == 0)
        #expect(
            try cli("server", "content", "init", server, "assessments", "a1", "a2", "--schema", "edumind-content", "--author", "ada").status
                == 0)
        #expect(try cli("init", "u1", "--schema", "edumind", "--remote", server + "/u1.git").status == 0)
        try publish(cli, "a1", files: ["assessments/a1.json": assessment, "assessments/a1/questions/q-001.json": question])
        return cli
    }

    /// Commits `files` in an author's clone of the item and pushes them: a new version.
    static func publish(_ cli: CLI, _ item: String, files: [String: String]) throws {
        try commit(cli, item, files: files)
        let pushed = try runBounded("/usr/bin/git", ["-C", cli.scratch("author-\(item)"), "push", "-q", "origin", "HEAD:main"])
        #expect(pushed.status == 0, "\(pushed.stderr)")
    }

    /// Commits `files` in the author's clone of the item (made first if need be).
    static func commit(_ cli: CLI, _ item: String, files: [String: String]) throws {
        let clone = cli.scratch("author-\(item)")
        if !FileManager.default.fileExists(atPath: clone) {
            _ = try runBounded("/usr/bin/git", ["clone", "-q", cli.scratch("server") + "/content/assessments/\(item).git", clone])
        }
        for (path, text) in files {
            try FileManager.default.createDirectory(
                atPath: clone + "/" + (path as NSString).deletingLastPathComponent,
                withIntermediateDirectories: true)
            try text.write(toFile: clone + "/" + path, atomically: true, encoding: .utf8)
        }
        _ = try runBounded("/usr/bin/git", ["-C", clone, "add", "-A"])
        _ = try runBounded(
            "/usr/bin/git", ["-C", clone, "-c", "user.name=Ada", "-c", "user.email=ada@example.org", "commit", "-q", "-m", "publish"])
    }

    @Test func aStudentDownloadsAnAssessmentSeesTheStorageScreenAndReadsItOffline() throws {
        let cli = try Self.served()
        let download = try cli("content", "download", "assessments", "a1")
        #expect(download.status == 0 && download.stdout.hasPrefix("Downloaded assessments/a1 to version 1 ("), "\(download.stderr)")
        let screen = try cli("content", "ls")
        let lines = screen.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(screen.stdout)")
        #expect(
            lines.first?.hasPrefix("assessments/a1  version 1 (") == true && lines.first?.contains("never read") == true
                && lines.first?.hasSuffix("0 pending") == true, "\(screen.stdout)")
        #expect(
            lines.last?.hasPrefix("Used: ") == true
                && lines.last?.contains(" / 500.0 MB (0%); items: 1 / 50; pending sync: 0 response(s)") == true,
            "\(screen.stdout)")
        // Offline: the server's folder is gone; the questions are read from the cache.
        try FileManager.default.moveItem(atPath: cli.scratch("server"), toPath: cli.scratch("server-away"))
        let question = try cli("content", "get", "assessments/a1/questions/q-001")
        #expect(question.status == 0 && question.stdout.contains(#""prompt": "2 + 2 = 4""#), "\(question.stderr)")
        #expect(try cli("content", "get", "--list", "assessments/a1").stdout == "assessments/a1\nassessments/a1/questions/q-001\n")
        let json = try cli("content", "ls", "--json").stdout
        #expect(json.contains(#""lastAccessedAt": 1"#) && json.contains(#""expired": false"#) && json.contains(#""version": 1"#), "\(json)")
        // Over a path, a missing server folder is a missing item (a network's failure is exit 75:
        // the scenario tests' real servers show it).
        let refused = try cli("content", "download", "assessments", "a1")
        #expect(refused.status == 1 && refused.stderr.hasPrefix("cairn: there is no item assessments/a1 at "), "\(refused.stderr)")
        #expect(try cli("content", "get", "assessments/a1/questions/q-001").status == 0)
    }

    @Test func aNewVersionReplacesTheOldOneAndRemovalFreesTheSpace() throws {
        let cli = try Self.served()
        #expect(try cli("content", "download", "assessments", "a1").status == 0)
        try Self.publish(
            cli, "a1",
            files: ["assessments/a1.json": Self.assessment.replacingOccurrences(of: "Algebra Quiz", with: "Algebra Quiz (fixed)")])
        let update = try cli("content", "download", "assessments", "a1")
        #expect(update.stdout.hasPrefix("Downloaded assessments/a1 from version 1 to version 2 ("), "\(update.stdout)\(update.stderr)")
        #expect(try cli("content", "get", "assessments/a1").stdout.contains("Algebra Quiz (fixed)"))
        let again = try cli("content", "download", "assessments", "a1")
        #expect(again.stdout.hasPrefix("assessments/a1 is up to date at version 2 ("), "\(again.stdout)")
        let removed = try cli("content", "rm", "assessments", "a1")
        #expect(removed.status == 0 && removed.stdout.hasPrefix("Removed assessments/a1 (version 2, "), "\(removed.stdout)")
        #expect(try cli("content", "ls").stdout.hasPrefix("Used: 0 B / 500.0 MB (0%); items: 0 / 50"))
        #expect(!FileManager.default.fileExists(atPath: cli.home + "/.content/assessments/a1.git"))
    }

    /// Commits `files` in the author's clone and puts them on the server's `main` without its
    /// hook (as a server without Cairn's hook would take them): a version nothing checked.
    static func publishUnchecked(_ cli: CLI, _ item: String, files: [String: String]) throws -> String {
        try commit(cli, item, files: files)
        let clone = cli.scratch("author-\(item)")
        let bare = cli.scratch("server") + "/content/assessments/\(item).git"
        let fetched = try runBounded("/usr/bin/git", ["--git-dir", bare, "fetch", "-q", clone, "+HEAD:refs/heads/main"])
        #expect(fetched.status == 0, "\(fetched.stderr)")
        _ = try runBounded("/usr/bin/git", ["-C", clone, "fetch", "-q", "origin"])
        return try runBounded("/usr/bin/git", ["--git-dir", bare, "rev-parse", "main"]).stdout.trimmingCharacters(
            in: .whitespacesAndNewlines)
    }

    /// A version that breaks the content set reached the server; the device refuses it and
    /// keeps version 1. The author publishes a fix on top: the device takes that newest valid
    /// version, and says (and records) that it passed over the broken one.
    @Test func aBrokenVersionIsPassedOverOnceAFixedOneFollows() throws {
        let cli = try Self.served()
        #expect(try cli("content", "download", "assessments", "a1").status == 0)
        let broken = try Self.publishUnchecked(
            cli, "a1",
            files: [
                "assessments/a1/questions/q-001.json": Self.question.replacingOccurrences(of: #""points": 1"#, with: #""points": "lots""#)
            ])
        let refused = try cli("content", "download", "assessments", "a1")
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("commit \(broken.prefix(7))") && refused.stderr.contains("/points"), "\(refused.stderr)")
        #expect(try cli("content", "ls").stdout.hasPrefix("assessments/a1  version 1 ("))

        let fixed = try Self.publishUnchecked(
            cli, "a1",
            files: ["assessments/a1/questions/q-001.json": Self.question.replacingOccurrences(of: #""points": 1"#, with: #""points": 2"#)])
        let taken = try cli("content", "download", "assessments", "a1")
        #expect(taken.status == 0, "\(taken.stderr)")
        let lines = taken.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains { $0.hasPrefix("Downloaded assessments/a1 from version 1 to version 3 (\(fixed.prefix(7)))") }, "\(taken.stdout)"
        )
        #expect(
            lines.contains { $0.hasPrefix("Passed over version 2 (\(broken.prefix(7))): ") && $0.contains("/points") }, "\(taken.stdout)")
        #expect(try cli("content", "get", "assessments/a1/questions/q-001").stdout.contains(#""points": 2"#))
        // The record keeps what was passed over, for the storage screen and scripts.
        let json = try cli("content", "ls", "--json").stdout
        #expect(json.contains(#""passedOver""#) && json.contains(broken), "\(json)")
        #expect(try cli("content", "download", "assessments", "a1").stdout.hasPrefix("assessments/a1 is up to date at version 3 ("))

        // A first download on another device takes the newest valid version too.
        let other = CLI()
        #expect(try other("init", "u1", "--schema", "edumind", "--remote", cli.scratch("server") + "/u1.git").status == 0)
        _ = try Self.publishUnchecked(cli, "a1", files: ["assessments/a1.json": "not json"])
        let first = try other("content", "download", "assessments", "a1")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(
            first.stdout.contains("to version 3 (\(fixed.prefix(7)))") && first.stdout.contains("Passed over version 4 ("),
            "\(first.stdout)")
    }

    @Test func limitsAreSetShownAndHeld() throws {
        let cli = try Self.served()
        let set = try cli("content", "limits", "--budget", "200MB", "--items", "2", "--item-size", "1kB", "--expiry", "3d")
        #expect(set.stdout == "budget 200.0 MB, 2 items, 1.0 kB an item, expiry 3d\n", "\(set.stdout)\(set.stderr)")
        let refused = try cli("content", "download", "assessments", "a1")
        #expect(
            refused.status == 1
                && refused.stderr.contains(
                    "over the limit of 1.0 kB an item; raise it with cairn content limits --item-size; nothing was downloaded"),
            "\(refused.stderr)")
        #expect(try cli("content", "ls").stdout.hasPrefix("Used: 0 B / 200.0 MB (0%); items: 0 / 2"))
        #expect(try cli("content", "limits", "--json").stdout.contains(#""expirySeconds": 259200"#))
    }

    @Test func badInputIsOneLineAndTheCacheStaysAsItWas() throws {
        let cli = try Self.served()
        #expect(try cli("content", "download", "assessments", "a1").status == 0)
        let before = try cli.snapshot(".content")
        let cases: [([String], String)] = [
            (["content", "download", "assessments", "nope"], "cairn: there is no item assessments/nope at "),
            (["content", "download", "books", "b1"], "cairn: there is no item books/b1 at "),
            (["content", "download", "assessments", "a2"], "cairn: assessments/a2 at "),
            (["content", "download", "assessments", "a/b"], "cairn: invalid item ID: "),
            (["content", "download", "__x__", "a1"], "cairn: invalid collection name: "),
            (
                ["content", "download", "assessments", "a1", "--schema", "edumind"],
                "cairn: the schema set edumind is not the content set of assessments"
            ),
            (
                ["content", "get", "assessments/a9/questions/q-001"],
                "cairn: assessments/a9 is not downloaded; download it with: cairn content download assessments a9"
            ),
            (
                ["content", "get", "assessments/a1/questions/q-404"],
                "cairn: the downloaded assessments/a1 holds no document assessments/a1/questions/q-404"
            ),
            (["content", "get", "assessments"], "cairn: "),
            (["content", "rm", "assessments", "a9"], "cairn: assessments/a9 is not downloaded"),
            (["content", "limits", "--budget", "lots"], "cairn: invalid --budget \"lots\": give a size like 500MB"),
            (["content", "limits", "--expiry", "soon"], "cairn: invalid --expiry \"soon\": give a time like 7d"),
            (["content", "limits", "--items", "0"], "cairn: invalid --items 0: give at least 1"),
            (
                ["content", "remote", "https://host/content/books"],
                "cairn: invalid content URL https://host/content/books: it needs {item}"
            ),
        ]
        for (arguments, phrase) in cases {
            let result = try runProcess(CLI.executable, ["--home", cli.home] + arguments)
            #expect(result.status == 1, "\(arguments): \(result.status) \(result.stderr)")
            #expect(result.stderr.hasPrefix(phrase), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(arguments): \(result.stderr)")
        }
        // Nothing above touched the cache, not even the item's last access.
        #expect(try cli.snapshot(".content").filter { $0.key != "lock" } == before.filter { $0.key != "lock" })
        #expect(try cli("content", "remote").stdout == cli.scratch("server") + "/content/{collection}/{item}.git\n")
    }
}
