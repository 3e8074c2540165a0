import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// `cairn server content init` makes a collection of content items, one bare repository each,
/// and the hook checks every version an author publishes with plain git: only the item's
/// documents, each valid under the collection's set with its derived fields right, history
/// never rewritten, the branch never deleted, only the authors pushing. (git runs hooks for
/// pushes to a path too, so no web server is needed here.)
@Suite(.historiesVerified) struct ContentRepositoryTests {
    let folder = TemporaryFolder("cairn-content")
    var server: String { folder.path + "/server" }
    var collection: String { server + "/content/assessments" }
    var repository: String { collection + "/a1.git" }
    var clone: String { folder.path + "/author/a1" }

    @discardableResult
    func cairn(_ arguments: String...) throws -> ProcessResult {
        try runProcess(CLI.executable, arguments)
    }

    @discardableResult
    func git(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try runProcess(
            "/usr/bin/git", ["-C", clone, "-c", "user.name=Ada", "-c", "user.email=ada@example.org"] + arguments,
            environment: environment)
    }

    func serverMain() throws -> String {
        try runProcess("/usr/bin/git", ["--git-dir", repository, "rev-parse", "--verify", "-q", "main"]).stdout
    }

    func write(_ files: [String: String?]) throws {
        for (path, content) in files {
            let file = clone + "/" + path
            if let content {
                try FileManager.default.createDirectory(
                    atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(content.utf8).write(to: URL(fileURLWithPath: file))
            } else {
                try FileManager.default.removeItem(atPath: file)
            }
        }
    }

    /// Commits `files` and pushes as `user` (the REMOTE_USER a web server would give the hook).
    func publish(_ files: [String: String?], as user: String = "ada", _ arguments: [String] = []) throws -> ProcessResult {
        try write(files)
        try git(["add", "-A"])
        try git(["commit", "-qm", "a version"])
        return try git(["push", "origin", "HEAD:main"] + arguments, environment: ["REMOTE_USER": user])
    }

    /// A push that is refused: the server's branch did not move; the commit is undone.
    func refused(_ files: [String: String?], as user: String = "ada", _ arguments: [String] = []) throws -> String {
        let before = try serverMain()
        let push = try publish(files, as: user, arguments)
        #expect(push.status != 0)
        #expect(try serverMain() == before, "the server's branch moved")
        try git(["reset", "-q", "--hard", "HEAD~1"])
        return push.stderr
    }

    static let assessment =
        #"{"title": "Algebra Quiz", "timeLimitSeconds": 600, "publishedAt": "2026-11-23T10:00:00Z", "questionCount": 1}"#
    static let question =
        #"{"type": "multiple_choice", "order": 1, "prompt": "2 + 2?", "choices": [{"id": "a", "text": "4"}, {"id": "b", "text": "5"}], "correctAnswers": ["a"], "points": 1}"#

    /// The collection with a1 and a2, ada its author, and a1's first version published.
    func setUp() throws {
        let made = try cairn(
            "server", "content", "init", server, "assessments", "a1", "a2", "--schema", "edumind-content", "--author", "ada")
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("Created \(collection) (schema set edumind-content)"))
        #expect(made.stdout.contains("Created \(repository)"))
        let config = try runProcess("/usr/bin/git", ["--git-dir", repository, "config", "--get-regexp", "^(receive|cairn)\\."]).stdout
        #expect(config.contains("cairn.content assessments") && config.contains("receive.denynonfastforwards true"))
        #expect(try runProcess("/usr/bin/git", ["clone", "-q", repository, clone]).status == 0)
        let first = try publish(["assessments/a1.json": Self.assessment, "assessments/a1/questions/q-001.json": Self.question])
        #expect(first.status == 0, "\(first.stderr)")
    }

    @Test func anAuthorPublishesVersionsWithPlainGit() throws {
        try setUp()
        let second = try publish([
            "assessments/a1.json": Self.assessment.replacingOccurrences(of: "Algebra Quiz", with: "Algebra Quiz (revised)")
        ])
        #expect(second.status == 0, "\(second.stderr)")
        // The version shown to people: the number of commits on main.
        #expect(try runProcess("/usr/bin/git", ["--git-dir", repository, "rev-list", "--count", "main"]).stdout == "2\n")
    }

    @Test func pushesBreakingARuleAreRefusedWithTheDocumentAndTheRule() throws {
        try setUp()
        #expect(
            try refused([
                "assessments/a1/questions/q-002.json":
                    #"{"type": "multiple_choice", "order": 2, "prompt": "?", "choices": [{"id": "a", "text": "x"}, {"id": "b", "text": "y"}], "correctAnswers": ["a", "b"], "points": 1}"#
            ])
            .contains("assessments/a1/questions/q-002 breaks its schema (question.schema.json) at /correctAnswers"))
        #expect(
            try refused(["assessments/a1/questions/q-002.json": #"{"type": "essay", "order": 2, "prompt": "Why?", "points": 3}"#])
                .contains("assessments/a1: derived field questionCount is 1, expected 2 (assessment.schema.json)"))
        #expect(
            try refused(["assessments/a1/questions/q1.json": #"{"type": "essay", "order": 2, "prompt": "Why?", "points": 3}"#])
                .contains("assessments/a1/questions/q1 breaks its schema (question.schema.json) at {questionId}"))
        #expect(
            try refused(["assessments/a2.json": Self.assessment]).contains(
                "assessments/a2.json is outside the item's folders (assessments/a1.json, assessments/a1/, .cairn/)"))
        #expect(try refused(["notes.txt": "hello"]).contains("notes.txt is outside the item's folders"))
        #expect(
            try refused(["assessments/a1/answers/x1.json": "{}"]).contains(
                "assessments/a1/answers/x1 is no kind of document of the collection's schema set"))
        #expect(
            try refused(["assessments/a1.json": nil, "assessments/a1/questions/q-001.json": nil]).contains(
                "assessments/a1.json is missing: every version holds the item's own document"))
        #expect(try refused(["assessments/a1.json": "{\"title\": 1,"]).contains("assessments/a1 is not valid JSON"))
        // Rewriting a published version, deleting the branch, another branch.
        try git(["commit", "-q", "--amend", "-m", "rewritten"])
        let rewrite = try git(["push", "-f", "origin", "HEAD:main"], environment: ["REMOTE_USER": "ada"])
        #expect(rewrite.status != 0)
        #expect(rewrite.stderr.contains("not a fast-forward"))
        let deletion = try git(["push", "origin", ":main"], environment: ["REMOTE_USER": "ada"])
        #expect(deletion.status != 0)
        #expect(deletion.stderr.contains("deleting main is refused: a published version stays reachable"))
        let tag = try git(["push", "origin", "HEAD:refs/heads/draft"], environment: ["REMOTE_USER": "ada"])
        #expect(tag.stderr.contains("only main holds the versions of assessments/a1; refs/heads/draft is refused"))
        #expect(try runProcess("/usr/bin/git", ["--git-dir", repository, "rev-list", "--count", "main"]).stdout == "1\n")
    }

    @Test func onlyTheAuthorsPublish() throws {
        try setUp()
        let by = try refused(["assessments/a1.json": Self.assessment.replacingOccurrences(of: "600", with: "60")], as: "student1")
        #expect(
            by.contains(
                "remote: cairn: user student1 is not an author of assessments (content/assessments/authors); only authors publish content"))
        // Naming another author adds them below the operator's lines; the repositories are
        // left as they are.
        try "ada\n# the quiz team\n".write(toFile: collection + "/authors", atomically: true, encoding: .utf8)
        let again = try cairn(
            "server", "content", "init", server, "assessments", "a1", "--schema", "edumind-content", "--author", "student1")
        #expect(again.status == 0)
        #expect(again.stdout.contains("nothing was created"))
        #expect(try String(contentsOfFile: collection + "/authors", encoding: .utf8) == "ada\n# the quiz team\nstudent1\n")
        #expect(
            try publish(["assessments/a1.json": Self.assessment.replacingOccurrences(of: "600", with: "60")], as: "student1").status == 0)
    }

    @Test func initAgainAddsItemsAndLeavesTheOthers() throws {
        try setUp()
        let before = try serverMain()
        let again = try cairn("server", "content", "init", server, "assessments", "a1", "a3", "--schema", "edumind-content")
        #expect(again.status == 0)
        #expect(again.stdout == "Created \(collection)/a3.git\n")
        #expect(try serverMain() == before)
        #expect(FileManager.default.fileExists(atPath: collection + "/a3.git/hooks/pre-receive"))
    }

    @Test func badInputIsOneLineAndWritesNothing() throws {
        try setUp()
        func refusedInit(_ arguments: [String]) throws -> String {
            let listing = try FileManager.default.subpathsOfDirectory(atPath: server).sorted()
            let result = try runProcess(CLI.executable, ["server", "content", "init"] + arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stdout.isEmpty)
            #expect(try FileManager.default.subpathsOfDirectory(atPath: server).sorted() == listing, "something was written: \(arguments)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            return result.stderr
        }
        // Another set for the collection: a changed copy of the one it holds.
        let changed = folder.path + "/changed"
        try FileManager.default.copyItem(atPath: shippedSchemaRoot.appendingPathComponent("edumind-content").path, toPath: changed)
        let question = changed + "/question.schema.json"
        try (try String(contentsOfFile: question, encoding: .utf8)).replacingOccurrences(
            of: "\"maxLength\": 10000", with: "\"maxLength\": 20000"
        )
        .write(toFile: question, atomically: true, encoding: .utf8)
        #expect(try refusedInit([server, "assessments", "a9", "--schema", changed]).contains("holds another schema set than"))
        #expect(
            try refusedInit([server, "assessments", "a9", "--schema", "bonfire-content"])
                .contains("the schema set bonfire-content describes the collection books, not assessments"))
        #expect(try refusedInit([server, "assessments", "a9", "--schema", "edumind"]).contains("describes progress, not content"))
        #expect(try refusedInit([server, "as/sessments", "a9", "--schema", "edumind-content"]).contains("invalid collection name"))
        #expect(try refusedInit([server, "assessments", "..", "--schema", "edumind-content"]).contains("invalid item ID"))
        #expect(
            try refusedInit([server, "assessments", "a9", "--schema", "edumind-content", "--author", "a/b"]).contains(
                "invalid author's user name"))
        // A folder that cannot be made: a file on its path.
        #expect(
            try refusedInit([server + "/content/assessments/authors", "assessments", "a9", "--schema", "edumind-content"])
                .contains("is not a folder"))
    }

    @Test func aContentSetIsNoSetOfProgress() throws {
        let home = folder.path + "/phone"
        let initialized = try runProcess(CLI.executable, ["--home", home, "init", "u1", "--schema", "edumind-content"])
        #expect(initialized.status == 1)
        #expect(
            initialized.stderr
                == "cairn: the schema set edumind-content describes shared content (the collection assessments), not a user's progress; serve the collection with cairn server content init; nothing was created\n"
        )
        #expect(!FileManager.default.fileExists(atPath: home + "/u1"))
        let served = try cairn("server", "init", server, "u1", "--schema", "bonfire-content")
        #expect(served.status == 1)
        #expect(served.stderr.contains("describes shared content (the collection books)"))
        #expect(!FileManager.default.fileExists(atPath: server + "/u1.git"))
    }

    @Test func aDeletedItemIsNoLongerThere() throws {
        try setUp()
        let removed = try cairn("server", "content", "rm", server, "assessments", "a1")
        #expect(removed.status == 0)
        #expect(!FileManager.default.fileExists(atPath: repository))
        let missing = try cairn("server", "content", "rm", server, "assessments", "a1")
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("is not a repository of the collection assessments"))
        #expect(try runProcess("/usr/bin/git", ["ls-remote", repository]).status != 0)
    }
}
