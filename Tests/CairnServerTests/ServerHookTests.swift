import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// `cairn hook pre-receive` in a repository of `cairn server init`: pushes made with plain git
/// that break a rule are refused with the document and the rule, and the server keeps its
/// branch. (git runs hooks for pushes to a path too, so no web server is needed here.)
@Suite(.historiesVerified) struct ServerHookTests {
    let folder = TemporaryFolder("cairn-hook")
    var server: String { folder.path + "/server/u1.git" }
    var store: String { folder.path + "/phone/u1" }

    @discardableResult
    func cairn(_ arguments: String..., input: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
        try runProcess(CLI.executable, ["--home", folder.path + "/phone"] + arguments, input: input,
                       environment: ["CAIRN_SYNC_RETRY": "none"].merging(environment) { $1 })
    }

    @discardableResult
    func git(_ arguments: String...) throws -> ProcessResult {
        try runProcess("/usr/bin/git", ["-C", store] + arguments)
    }

    func serverMain() throws -> String {
        try runProcess("/usr/bin/git", ["--git-dir", server, "rev-parse", "main"]).stdout
    }

    /// A server repository checking the life-in-uk set, and a store that pushed an attempt.
    func setUp() throws {
        #expect(try runProcess(CLI.executable, ["server", "init", folder.path + "/server", "u1", "--schema", "life-in-uk"]).status == 0)
        #expect(try cairn("init", "u1", "--schema", "life-in-uk", "--remote", server).status == 0)
        #expect(try cairn("put", "users/u1/examAttempts/a1", input: #"{"attemptId":"a1","examId":"practice-1","status":"passed","score":80}"#).status == 0)
        #expect(try cairn("sync").status == 0)
        let config = try runProcess("/usr/bin/git", ["--git-dir", server, "config", "--get-regexp", "^receive\\."]).stdout
        #expect(config.contains("receive.denynonfastforwards true") && config.contains("receive.fsckobjects true"))
    }

    /// Commits `files` (path → content, nil to delete) with plain git and pushes; returns what
    /// git said, after checking the server's branch did not move, and undoes the commit.
    func refusedPush(_ files: [String: String?], _ arguments: [String] = []) throws -> String {
        let before = try serverMain()
        for (path, content) in files {
            let file = store + "/" + path
            if let content {
                try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(content.utf8).write(to: URL(fileURLWithPath: file))
            } else {
                try FileManager.default.removeItem(atPath: file)
            }
        }
        try git("add", "-A")
        try git("commit", "-qm", "by hand")
        let push = try runProcess("/usr/bin/git", ["-C", store, "push", "origin", "main"] + arguments)
        #expect(push.status != 0)
        #expect(try serverMain() == before, "the server's branch moved")
        try git("reset", "-q", "--hard", "HEAD~1")
        return push.stderr
    }

    @Test func pushesBreakingARuleAreRefusedWithTheDocumentAndTheRule() throws {
        try setUp()
        let attempt = "users/u1/examAttempts/a1.json"
        #expect(try refusedPush([attempt: #"{"attemptId":"a1","examId":"practice-1","status":"passed","score":99}"#])
            .contains("remote: cairn: users/u1/examAttempts/a1 is append-only (exam-attempt.schema.json): an existing document is never changed"))
        #expect(try refusedPush([attempt: nil]).contains("users/u1/examAttempts/a1 is append-only (exam-attempt.schema.json): an existing document is never deleted"))
        #expect(try refusedPush(["users/u1/examAttempts/a2.json": #"{"attemptId":"a2","examId":"practice-1","status":"passed","score":120}"#])
            .contains("users/u1/examAttempts/a2 breaks its schema (exam-attempt.schema.json) at /score"))
        #expect(try refusedPush(["users/u1/notes/n1.json": "{\"text\": 1,"]).contains("users/u1/notes/n1 is not valid JSON"))
        let large = "{\"text\":\"" + String(repeating: "x", count: 1_100_000) + "\"}"
        #expect(try refusedPush(["users/u1/notes/n2.json": large]).contains("users/u1/notes/n2 is 1100011 bytes; a document is at most 1048576 bytes"))
        #expect(try refusedPush(["users/u2/books/b1.json": "{}"]).contains("users/u2/books/b1.json belongs to another user than u1"))
        #expect(try refusedPush(["notes.txt": "hello"]).contains("notes.txt is outside the store's folders"))
        // Deleting the branch, and rewriting history.
        let deletion = try runProcess("/usr/bin/git", ["-C", store, "push", "origin", ":main"])
        #expect(deletion.status != 0)
        try git("reset", "-q", "--hard", "HEAD~1")
        #expect(try refusedPush(["users/u1/notes/n3.json": "{}"], ["--force"]).contains("not a fast-forward"))
        #expect(try runProcess("/usr/bin/git", ["--git-dir", server, "fsck", "--strict"]).status == 0)
    }

    /// A discard (`cairn content discard`) deletes only answers the remote never held: a
    /// commit that names a discard for the version an answer pushed before pins, and deletes
    /// it, is refused like any deletion of an append-only document.
    @Test func aDiscardDeletesNoAnswerTheServerHolds() throws {
        #expect(try runProcess(CLI.executable, ["server", "init", folder.path + "/server", "u1", "--schema", "edumind"]).status == 0)
        #expect(try cairn("init", "u1", "--schema", "edumind", "--remote", server).status == 0)
        let version = String(repeating: "ab", count: 20)
        let response = #"{"id":"r1","student_id":"u1","assessment_id":"a1","question_id":"q-001","response_data":{"answer":"4"},"answered_at":1732089600000,"content_version":"\#(version)"}"#
        let put = try cairn("put", "users/u1/pending_responses/a1_q-001", input: response)
        #expect(put.status == 0, "\(put.stderr)")
        // Pushed with plain git: no item a1 exists for a sync's pin check to ask.
        #expect(try cairn("checkpoint").status == 0)
        #expect(try git("push", "-q", "origin", "main").status == 0)
        let before = try serverMain()
        try git("rm", "-q", "users/u1/pending_responses/a1_q-001.json")
        try git("commit", "-qm", "Content: discard the answers to assessments/a1\n\nCairn-Content-Decision: discard assessments/a1 \(version)")
        let push = try runProcess("/usr/bin/git", ["-C", store, "push", "origin", "main"])
        #expect(push.status != 0)
        #expect(push.stderr.contains("users/u1/pending_responses/a1_q-001 is append-only (pending-response.schema.json): an existing document is never deleted"), "\(push.stderr)")
        #expect(try serverMain() == before)
        try git("reset", "-q", "--hard", "HEAD~1")
    }

    /// The post-receive hook starts the tool only when the repository stores an asset, in
    /// lfs/objects or in the folder its config names: most store none, and a process start on
    /// every push would be spent for nothing. Each hook that ran reports to the file
    /// `CAIRN_HOOK_REPORT` names.
    @Test func thePostReceiveHookStartsTheToolOnlyWhenAnAssetIsStored() throws {
        try setUp()
        let report = folder.path + "/report"
        func hooksOfAPush(_ note: String) throws -> [String] {
            try? FileManager.default.removeItem(atPath: report)
            try FileManager.default.createDirectory(atPath: store + "/users/u1/notes", withIntermediateDirectories: true)
            try Data(#"{"text":"\#(note)"}"#.utf8).write(to: URL(fileURLWithPath: store + "/users/u1/notes/\(note).json"))
            try git("add", "-A")
            try git("commit", "-qm", note)
            let push = try runProcess("/usr/bin/git", ["-C", store, "push", "-q", "origin", "main"], environment: ["CAIRN_HOOK_REPORT": report])
            #expect(push.status == 0, "\(push.stderr)")
            let lines = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
            return ["pre-receive", "post-receive"].filter { lines.contains("\"\($0)\"") }
        }
        #expect(try hooksOfAPush("n1") == ["pre-receive"])
        // An object as a path remote or an LFS server keeps it (aa/bb/<oid>).
        let oid = String(repeating: "ab", count: 32)
        try FileManager.default.createDirectory(atPath: server + "/lfs/objects/ab/ab", withIntermediateDirectories: true)
        try Data("recording".utf8).write(to: URL(fileURLWithPath: server + "/lfs/objects/ab/ab/" + oid))
        #expect(try hooksOfAPush("n2") == ["pre-receive", "post-receive"])
        // A storage the config names, relative to the repository; lfs/objects no longer counts.
        #expect(try runProcess("/usr/bin/git", ["--git-dir", server, "config", "cairn.lfsStorage", "assets"]).status == 0)
        #expect(try hooksOfAPush("n3") == ["pre-receive"])
        try FileManager.default.createDirectory(atPath: server + "/assets", withIntermediateDirectories: true)
        try Data("recording".utf8).write(to: URL(fileURLWithPath: server + "/assets/" + oid))
        #expect(try hooksOfAPush("n4") == ["pre-receive", "post-receive"])
        // A folder whose name starts with a dash is a folder, not an option of find.
        #expect(try runProcess("/usr/bin/git", ["--git-dir", server, "config", "cairn.lfsStorage", "-stored"]).status == 0)
        try FileManager.default.createDirectory(atPath: server + "/-stored", withIntermediateDirectories: true)
        try Data("recording".utf8).write(to: URL(fileURLWithPath: server + "/-stored/" + oid))
        #expect(try hooksOfAPush("n5") == ["pre-receive", "post-receive"])
        #expect(FileManager.default.fileExists(atPath: server + "/assets/" + oid), "no document named it, so no push left it behind")
    }

    @Test func anotherAuthenticatedUserIsRefused() throws {
        try setUp()
        let main = try serverMain().trimmingCharacters(in: .whitespacesAndNewlines)
        let line = "\(main) \(main) refs/heads/main\n"
        func hook(_ user: String?, as variable: String = "REMOTE_USER") throws -> ProcessResult {
            var environment = ["GIT_DIR": server]
            if let user { environment[variable] = user }
            return try runProcess(CLI.executable, ["hook", "pre-receive"], input: line, environment: environment)
        }
        let other = try hook("u2")
        #expect(other.status == 1)
        #expect(other.stderr == "cairn: user u2 may not push to the progress of u1\n")
        #expect(try hook("u1").status == 0)
        #expect(try hook(nil).status == 0)
        // gitolite names the user in GL_USER.
        let gitolite = try hook("u2", as: "GL_USER")
        #expect(gitolite.status == 1)
        #expect(gitolite.stderr == "cairn: user u2 may not push to the progress of u1\n")
        #expect(try hook("u1", as: "GL_USER").status == 0)
        let branch = try runProcess(CLI.executable, ["hook", "pre-receive"], input: "\(main) \(main) refs/heads/other\n",
                                    environment: ["GIT_DIR": server])
        #expect(branch.status == 1 && branch.stderr.contains("only main holds progress"))
    }

    /// The log lines a sync writes with CAIRN_LOG, and retries after network failures.
    @Test func syncLogsWhatItDidAndRetriesNetworkFailures() throws {
        try setUp()
        #expect(try cairn("put", "users/u1/examAttempts/a2", input: #"{"attemptId":"a2","examId":"practice-1","status":"passed","score":70}"#).status == 0)
        let logged = try cairn("sync", environment: ["CAIRN_LOG": "info"])
        #expect(logged.status == 0)
        for line in ["checkpoint", "fetch", "push"] {
            #expect(logged.stderr.split(separator: "\n").contains { $0.hasSuffix("[CairnCore] \(line)") }, "\(line): \(logged.stderr)")
        }
        #expect(logged.stderr.contains("commits=1"))
        #expect(try cairn("remote", "set", "http://127.0.0.1:9/git/u1.git").status == 0)
        let started = Date()
        let failed = try cairn("sync", "--retry", "0.2,0.4", environment: ["CAIRN_LOG": "warning"])
        #expect(failed.status == 75)
        #expect(failed.stderr.components(separatedBy: "network failure").count - 1 == 2, "\(failed.stderr)")
        #expect(Date().timeIntervalSince(started) >= 0.6)
        #expect(failed.stderr.hasSuffix("cairn: cannot fetch from http://127.0.0.1:9/git/u1.git: cannot connect to 127.0.0.1 port 9: Connection refused\n"))
        let bad = try cairn("sync", "--retry", "5,soon")
        #expect(bad.status == 1 && bad.stderr.contains("invalid retry schedule"))
    }
}
