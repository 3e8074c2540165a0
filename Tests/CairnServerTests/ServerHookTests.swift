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
        try runProcess(
            CLI.executable, ["--home", folder.path + "/phone"] + arguments, input: input,
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
        #expect(
            try cairn("put", "users/u1/examAttempts/a1", input: #"{"attemptId":"a1","examId":"practice-1","status":"passed","score":80}"#)
                .status == 0)
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
                try FileManager.default.createDirectory(
                    atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
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
        #expect(
            try refusedPush([attempt: #"{"attemptId":"a1","examId":"practice-1","status":"passed","score":99}"#])
                .contains(
                    "remote: cairn: users/u1/examAttempts/a1 is append-only (exam-attempt.schema.json): an existing document is never changed"
                ))
        #expect(
            try refusedPush([attempt: nil]).contains(
                "users/u1/examAttempts/a1 is append-only (exam-attempt.schema.json): an existing document is never deleted"))
        #expect(
            try refusedPush(["users/u1/examAttempts/a2.json": #"{"attemptId":"a2","examId":"practice-1","status":"passed","score":120}"#])
                .contains("users/u1/examAttempts/a2 breaks its schema (exam-attempt.schema.json) at /score"))
        #expect(try refusedPush(["users/u1/notes/n1.json": "{\"text\": 1,"]).contains("users/u1/notes/n1 is not valid JSON"))
        let large = "{\"text\":\"" + String(repeating: "x", count: 1_100_000) + "\"}"
        #expect(
            try refusedPush(["users/u1/notes/n2.json": large]).contains(
                "users/u1/notes/n2 is 1100011 bytes; a document is at most 1048576 bytes"))
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
        let response =
            #"{"id":"r1","student_id":"u1","assessment_id":"a1","question_id":"q-001","response_data":{"answer":"4"},"answered_at":1732089600000,"content_version":"\#(version)"}"#
        let put = try cairn("put", "users/u1/pending_responses/a1_q-001", input: response)
        #expect(put.status == 0, "\(put.stderr)")
        // Pushed with plain git: no item a1 exists for a sync's pin check to ask.
        #expect(try cairn("checkpoint").status == 0)
        #expect(try git("push", "-q", "origin", "main").status == 0)
        let before = try serverMain()
        try git("rm", "-q", "users/u1/pending_responses/a1_q-001.json")
        try git(
            "commit", "-qm", "Content: discard the answers to assessments/a1\n\nCairn-Content-Decision: discard assessments/a1 \(version)")
        let push = try runProcess("/usr/bin/git", ["-C", store, "push", "origin", "main"])
        #expect(push.status != 0)
        #expect(
            push.stderr.contains(
                "users/u1/pending_responses/a1_q-001 is append-only (pending-response.schema.json): an existing document is never deleted"),
            "\(push.stderr)")
        #expect(try serverMain() == before)
        try git("reset", "-q", "--hard", "HEAD~1")
    }

    /// A server repository checking the bonfire set, whose reading sessions carry a
    /// recording, and a store that pushed one session without it.
    func setUpWithAssets() throws {
        #expect(try runProcess(CLI.executable, ["server", "init", folder.path + "/server", "u1", "--schema", "bonfire"]).status == 0)
        #expect(try cairn("init", "u1", "--schema", "bonfire", "--remote", server).status == 0)
        #expect(try cairn("put", "users/u1/readingSessions/s0", input: Self.session).status == 0)
        #expect(try cairn("checkpoint").status == 0)
        let first = try runProcess("/usr/bin/git", ["-C", store, "push", "-q", "origin", "main"])
        #expect(first.status == 0 && first.stderr.isEmpty, "the first push, which makes main: \(first.stderr)")
    }

    static let session = #"{"book":"starry-forest","startedAt":"2026-11-20T18:00:00Z","durationSeconds":600}"#

    /// ``setUpWithAssets()``, then session s1 with a recording, stored on the server as its
    /// LFS server would have it (not pushed yet); returns where the server keeps it.
    func setUpWithARecording() throws -> String {
        try setUpWithAssets()
        let recording = folder.path + "/session.m4a"
        try Data("recording".utf8).write(to: URL(fileURLWithPath: recording))
        #expect(try cairn("put", "users/u1/readingSessions/s1", "--asset", "audioAsset=" + recording, input: Self.session).status == 0)
        return try storeOnTheServer(recording)
    }

    /// Checkpoints what the store holds and pushes it with plain git; returns the hooks that
    /// reported to the file `CAIRN_HOOK_REPORT` names (a hook that started no program
    /// reports nothing).
    func hooksOfAPush() throws -> [String] {
        let report = folder.path + "/report"
        try? FileManager.default.removeItem(atPath: report)
        #expect(try cairn("checkpoint").status == 0)
        let push = try runProcess(
            "/usr/bin/git", ["-C", store, "push", "-q", "origin", "main"], environment: ["CAIRN_HOOK_REPORT": report])
        #expect(push.status == 0, "\(push.stderr)")
        let lines = (try? String(contentsOfFile: report, encoding: .utf8)) ?? ""
        return ["pre-receive", "post-receive"].filter { lines.contains("\"\($0)\"") }
            + (push.stderr.isEmpty || push.stderr.contains("removed 1 asset(s)") ? [] : ["said: " + push.stderr])
    }

    /// Where the server keeps the recording `file` (git-lfs's `aa/bb/<oid>`, the oid its
    /// SHA-256), put there as its LFS server would have before the push: the pre-receive hook
    /// refuses a pointer to an asset the server lacks.
    func storeOnTheServer(_ file: String) throws -> String {
        let oid = String(try runProcess("/usr/bin/sha256sum", [file]).stdout.prefix(64))
        let folder = server + "/lfs/objects/\(oid.prefix(2))/\(oid.dropFirst(2).prefix(2))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: file, toPath: folder + "/" + oid)
        return folder + "/" + oid
    }

    func marks() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: server + "/cairn/sweep")) ?? []).sorted()
    }

    /// The post-receive hook starts a program only after a push that changed or removed an
    /// asset's pointer, which the pre-receive hook marks (`cairn/sweep/<commit>`): no other
    /// push can leave an asset behind, and a process start on each would be spent for
    /// nothing. After such a push, the asset leaves the server's storage and the mark goes.
    @Test func thePostReceiveHookStartsAProgramOnlyAfterAPushThatDroppedAnAsset() throws {
        let stored = try setUpWithARecording()
        #expect(try hooksOfAPush() == ["pre-receive"], "a new asset leaves none behind")
        #expect(try cairn("put", "users/u1/readingSessions/s2", input: Self.session).status == 0)
        #expect(try hooksOfAPush() == ["pre-receive"], "an asset is stored, but this push changed no pointer")
        #expect(marks().isEmpty)
        #expect(FileManager.default.fileExists(atPath: stored))
        #expect(try cairn("asset", "rm", "users/u1/readingSessions/s1", "audioAsset").status == 0)
        #expect(try hooksOfAPush() == ["pre-receive", "post-receive"])
        #expect(!FileManager.default.fileExists(atPath: stored), "no document points to it any more")
        #expect(marks().isEmpty, "the mark goes once its push is swept")
    }

    /// A push whose post-receive hook never ran (the server stopped first) leaves its mark and
    /// its asset: the next push's hook sweeps every mark whose commit `main` has reached. A
    /// mark of a push that never landed is kept for an hour, then removed.
    @Test func aMarkAPushLeftIsSweptByTheNextOne() throws {
        let stored = try setUpWithARecording()
        #expect(try hooksOfAPush() == ["pre-receive"])
        let hook = server + "/hooks/post-receive"
        try FileManager.default.moveItem(atPath: hook, toPath: hook + ".aside")
        #expect(try cairn("asset", "rm", "users/u1/readingSessions/s1", "audioAsset").status == 0)
        #expect(try hooksOfAPush() == ["pre-receive"])
        let main = try serverMain().trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(marks() == [main], "marked by the pre-receive hook, named by the commit")
        #expect(FileManager.default.fileExists(atPath: stored))
        try FileManager.default.moveItem(atPath: hook + ".aside", toPath: hook)

        // Two marks of pushes that never landed: one from a minute ago, one from two hours ago.
        let (fresh, stale) = (String(repeating: "1", count: 40), String(repeating: "2", count: 40))
        for name in [fresh, stale] {
            try Data("\(main) \(name)\n".utf8).write(to: URL(fileURLWithPath: server + "/cairn/sweep/" + name))
        }
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -7_200)], ofItemAtPath: server + "/cairn/sweep/" + stale)
        #expect(try cairn("put", "users/u1/readingSessions/s2", input: Self.session).status == 0)
        #expect(try hooksOfAPush() == ["pre-receive", "post-receive"], "a mark is there")
        #expect(!FileManager.default.fileExists(atPath: stored), "swept by the next push's hook")
        #expect(marks() == [fresh])
    }

    /// With the hook program beside the tool, the pre-receive script's first line starts it
    /// (no shell runs first) and the post-receive script names it; a tool alone in its
    /// folder writes scripts that run `cairn hook …`, which does the same.
    @Test func theHooksRunTheHookProgramBesideTheTool() throws {
        let beside = (CLI.executable as NSString).deletingLastPathComponent + "/cairn-hook"
        #expect(try runProcess(CLI.executable, ["server", "init", folder.path + "/server", "u1"]).status == 0)
        let pre = try String(contentsOfFile: server + "/hooks/pre-receive", encoding: .utf8)
        #expect(pre.hasPrefix("#!\(beside) pre-receive\n"), "\(pre)")
        let post = try String(contentsOfFile: server + "/hooks/post-receive", encoding: .utf8)
        #expect(post.contains("exec '\(beside)' post-receive"), "\(post)")

        let alone = folder.path + "/alone"
        try FileManager.default.createDirectory(atPath: alone, withIntermediateDirectories: true)
        do {
            try FileManager.default.linkItem(atPath: CLI.executable, toPath: alone + "/cairn")
        } catch {
            try FileManager.default.copyItem(atPath: CLI.executable, toPath: alone + "/cairn")
        }
        #expect(try runProcess(alone + "/cairn", ["server", "init", folder.path + "/other", "u1"]).status == 0)
        let script = try String(contentsOfFile: folder.path + "/other/u1.git/hooks/pre-receive", encoding: .utf8)
        #expect(script.hasPrefix("#!/bin/sh\n") && script.contains("exec '\(alone)/cairn' hook pre-receive"), "\(script)")

        // Run by hand, wrongly: one line on how git runs it, and a usage status.
        let wrong = try runProcess(beside, ["pre-push"])
        #expect(wrong.status == 64 && wrong.stderr.split(separator: "\n").count == 1, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("cairn-hook pre-receive|post-receive"))
        // Its help, which its manual page is made from.
        let help = try runProcess(beside, ["--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: cairn-hook <hook> [<script>]"), "\(help.stdout)\(help.stderr)")
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
        let branch = try runProcess(
            CLI.executable, ["hook", "pre-receive"], input: "\(main) \(main) refs/heads/other\n",
            environment: ["GIT_DIR": server])
        #expect(branch.status == 1 && branch.stderr.contains("only main holds progress"))
    }

    /// The log lines a sync writes with CAIRN_LOG, and retries after network failures.
    @Test func syncLogsWhatItDidAndRetriesNetworkFailures() throws {
        try setUp()
        #expect(
            try cairn("put", "users/u1/examAttempts/a2", input: #"{"attemptId":"a2","examId":"practice-1","status":"passed","score":70}"#)
                .status == 0)
        let logged = try cairn("sync", environment: ["CAIRN_LOG": "debug"])
        #expect(logged.status == 0)
        // Its news were all its own: it pushed first, and fetched nothing.
        for line in ["checkpoint", "push"] {
            #expect(logged.stderr.split(separator: "\n").contains { $0.hasSuffix("[CairnCore] \(line)") }, "\(line): \(logged.stderr)")
        }
        #expect(!logged.stderr.contains("[CairnCore] fetch"), "\(logged.stderr)")
        #expect(logged.stderr.contains("commits=1"))
        #expect(try cairn("remote", "set", "http://127.0.0.1:9/git/u1.git").status == 0)
        let started = Date()
        let failed = try cairn("sync", "--retry", "0.2,0.4", environment: ["CAIRN_LOG": "warning"])
        #expect(failed.status == 75)
        #expect(failed.stderr.components(separatedBy: "network failure").count - 1 == 2, "\(failed.stderr)")
        #expect(Date().timeIntervalSince(started) >= 0.6)
        #expect(
            failed.stderr.hasSuffix(
                "cairn: cannot fetch from http://127.0.0.1:9/git/u1.git: cannot connect to 127.0.0.1 port 9: Connection refused\n"))
        let bad = try cairn("sync", "--retry", "5,soon")
        #expect(bad.status == 1 && bad.stderr.contains("invalid retry schedule"))
    }
}
