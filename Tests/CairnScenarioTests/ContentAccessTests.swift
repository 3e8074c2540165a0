import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Content repositories (`cairn server content init`) behind real smart-HTTP git servers on
/// 127.0.0.1 (lighttpd with `git http-backend` as CGI, nginx with fcgiwrap), with the access
/// rules CairnCore.docc's SharedContent gives, and plain git as the client: every signed-in
/// user fetches an item (an author of another collection too), only the collection's authors
/// push, an anonymous client does neither; an author publishes a version with `git push`, and
/// what the hook refuses (a document the set refuses, a rewritten version) reaches the author
/// as `remote: cairn:`.
@Suite(.serialized, .historiesVerified) struct ContentAccessTests {
    /// ada writes assessments; sam reads; bo writes another collection (books) and only reads here.
    static let passwords = ["ada": "author-pw", "sam": "reader-pw", "bo": "other-author-pw"]
    static let assessment =
        #"{"title": "Algebra Quiz", "timeLimitSeconds": 600, "publishedAt": "2026-11-23T10:00:00Z", "questionCount": 1}"#
    static let question = #"{"type": "true_false", "order": 1, "prompt": "2 + 2 = 4", "correctAnswers": ["true"], "points": 1}"#

    /// Why the served collection could not be made.
    struct SetupError: Error, CustomStringConvertible {
        var description: String
    }

    /// The collection `assessments` (item a1, author ada) served by `kind`.
    final class Served {
        let folder = TemporaryFolder("cairn-content-http")
        let server: any GitServer
        var root: String { folder.path + "/repos" }
        var repository: String { root + "/content/assessments/a1.git" }

        init(_ kind: GitServerKind) throws {
            let made = try runBounded(
                CLI.executable,
                [
                    "server", "content", "init", folder.path + "/repos", "assessments", "a1",
                    "--schema", "edumind-content", "--author", "ada",
                ])
            guard made.status == 0 else { throw SetupError(description: "cairn server content init failed: \(made.stderr)") }
            server = try kind.start(
                root: folder.path + "/repos", users: ContentAccessTests.passwords,
                contentAuthors: ["assessments": ["ada"], "books": ["bo"]])
        }

        /// The item's URL, with `user`'s password when a user is given.
        func url(_ user: String?) -> String {
            let credentials = user.map { "\($0):\(ContentAccessTests.passwords[$0]!)@" } ?? ""
            return "http://\(credentials)127.0.0.1:\(server.port)/git/content/assessments/a1.git"
        }

        /// The commit the server's `main` points at ("" when it has none).
        func main() throws -> String {
            try runBounded("/usr/bin/git", ["--git-dir", repository, "rev-parse", "--verify", "-q", "refs/heads/main"])
                .stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    /// Plain git, never asking for credentials, with no helper or configuration of the machine's.
    static func git(_ arguments: [String], in folder: String? = nil) throws -> ProcessResult {
        try runBounded(
            "/usr/bin/git",
            (folder.map { ["-C", $0] } ?? []) + [
                "-c", "user.name=Ada", "-c", "user.email=ada@example.org",
                "-c", "credential.helper=",
            ] + arguments,
            environment: ["GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1", "GIT_ASKPASS": "", "SSH_ASKPASS": ""],
            removing: ["GIT_DIR", "GIT_WORK_TREE"])
    }

    static func write(_ files: [String: String], in clone: String) throws {
        for (path, content) in files {
            let file = clone + "/" + path
            try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(content.utf8).write(to: URL(fileURLWithPath: file))
        }
    }

    /// Commits `files` in `clone` and pushes them to its origin.
    static func commitAndPush(_ files: [String: String], in clone: String, message: String) throws -> ProcessResult {
        try write(files, in: clone)
        _ = try git(["add", "-A"], in: clone)
        _ = try git(["commit", "-qm", message], in: clone)
        return try git(["push", "origin", "HEAD:main"], in: clone)
    }

    @Test(arguments: GitServerKind.allCases)
    func everyUserFetchesOnlyAuthorsPushAnonymousNeither(_ kind: GitServerKind) throws {
        let served = try Served(kind)
        defer { served.server.stop() }
        let work = served.folder.path

        // The author publishes version 1 with plain git.
        let author = work + "/ada"
        let cloned = try Self.git(["clone", "-q", served.url("ada"), author])
        #expect(cloned.status == 0, "\(cloned.stderr)\n\(served.server.errorLog)")
        let first = try Self.commitAndPush(
            ["assessments/a1.json": Self.assessment, "assessments/a1/questions/q-001.json": Self.question],
            in: author, message: "Algebra Quiz, version 1")
        #expect(first.status == 0, "\(first.stderr)\n\(served.server.errorLog)")
        let published = try served.main()
        #expect(!published.isEmpty)

        // Another signed-in user fetches it, and cannot push.
        let reader = work + "/sam"
        let fetched = try Self.git(["clone", "-q", served.url("sam"), reader])
        #expect(fetched.status == 0, "\(fetched.stderr)\n\(served.server.errorLog)")
        #expect(FileManager.default.contents(atPath: reader + "/assessments/a1.json") == Data(Self.assessment.utf8))
        let pushed = try Self.commitAndPush(
            ["assessments/a1.json": Self.assessment.replacingOccurrences(of: "600", with: "6000")],
            in: reader, message: "a student's edit")
        #expect(pushed.status != 0)
        #expect(
            pushed.stderr.contains("401") || pushed.stderr.contains("Authentication failed") || pushed.stderr.contains("403"),
            "\(pushed.stderr)")
        // Refused by the web server, before any pack reached the hook.
        #expect(!pushed.stderr.contains("remote: cairn:"), "\(pushed.stderr)")
        #expect(try served.main() == published, "a reader's push reached the server")

        // An author of another collection reads here as any user, and cannot publish.
        let other = work + "/bo"
        #expect(try Self.git(["clone", "-q", served.url("bo"), other]).status == 0)
        let otherPush = try Self.commitAndPush(
            ["assessments/a1.json": Self.assessment.replacingOccurrences(of: "600", with: "60")],
            in: other, message: "another collection's author")
        #expect(otherPush.status != 0 && !otherPush.stderr.contains("remote: cairn:"), "\(otherPush.stderr)")
        #expect(try served.main() == published, "another collection's author published here")

        // Nobody signed in: neither fetch nor push.
        let anonymous = try Self.git(["clone", "-q", served.url(nil), work + "/anonymous"])
        #expect(anonymous.status != 0)
        #expect(
            anonymous.stderr.contains("could not read Username") || anonymous.stderr.contains("Authentication failed"),
            "\(anonymous.stderr)")
        _ = try Self.git(["remote", "set-url", "origin", served.url(nil)], in: reader)
        let anonymousPush = try Self.git(["push", "origin", "HEAD:main"], in: reader)
        #expect(anonymousPush.status != 0)
        #expect(try served.main() == published)

        // The author publishes version 2; the reader fetches it.
        let second = try Self.commitAndPush(
            ["assessments/a1.json": Self.assessment.replacingOccurrences(of: "Algebra Quiz", with: "Algebra Quiz (revised)")],
            in: author, message: "Algebra Quiz, version 2")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try runBounded("/usr/bin/git", ["--git-dir", served.repository, "rev-list", "--count", "main"]).stdout == "2\n")
        _ = try Self.git(["remote", "set-url", "origin", served.url("sam")], in: reader)
        #expect(try Self.git(["fetch", "-q", "origin"], in: reader).status == 0)
        #expect(
            try Self.git(["rev-parse", "origin/main"], in: reader).stdout.trimmingCharacters(in: .whitespacesAndNewlines) == served.main())
    }

    @Test(arguments: GitServerKind.allCases)
    func whatTheHookRefusesReachesTheAuthor(_ kind: GitServerKind) throws {
        let served = try Served(kind)
        defer { served.server.stop() }
        let author = served.folder.path + "/ada"
        #expect(try Self.git(["clone", "-q", served.url("ada"), author]).status == 0)
        let first = try Self.commitAndPush(
            ["assessments/a1.json": Self.assessment, "assessments/a1/questions/q-001.json": Self.question],
            in: author, message: "version 1")
        #expect(first.status == 0, "\(first.stderr)\n\(served.server.errorLog)")
        let published = try served.main()

        // A document the set refuses: a true/false question answered "maybe".
        let bad = try Self.commitAndPush(
            ["assessments/a1/questions/q-001.json": Self.question.replacingOccurrences(of: #"["true"]"#, with: #"["maybe"]"#)],
            in: author, message: "a bad answer")
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("remote: cairn: commit "), "\(bad.stderr)")
        #expect(
            bad.stderr.contains("assessments/a1/questions/q-001 breaks its schema (question.schema.json) at /correctAnswers/0"),
            "\(bad.stderr)")
        #expect(try served.main() == published)

        // Rewriting the published version.
        _ = try Self.git(["reset", "-q", "--hard", "origin/main"], in: author)
        _ = try Self.git(["commit", "-q", "--amend", "-m", "version 1, rewritten"], in: author)
        let rewrite = try Self.git(["push", "-f", "origin", "HEAD:main"], in: author)
        #expect(rewrite.status != 0)
        #expect(rewrite.stderr.contains("not a fast-forward"), "\(rewrite.stderr)")
        #expect(try served.main() == published)
    }
}
