import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// The edumind student of seed 001 §6.1 scenario 1 at a shell: an answer given offline to a
/// downloaded assessment, the assessment updated on the server meanwhile. `cairn sync` merges,
/// pushes nothing, lists the held answer and the two commands that decide, and exits 1;
/// `--json` says the same; after `cairn content submit-anyway` the sync pushes, with the
/// decision in the server's history.
@Suite(.historiesVerified) struct HeldAnswersTranscriptTests {
    let cli = CLI()
    var server: String { cli.scratch("server") }
    var item: String { server + "/content/assessments/a1.git" }

    @discardableResult
    func git(_ arguments: String...) throws -> String {
        let result = try runProcess("/usr/bin/git", ["-c", "user.name=Ada", "-c", "user.email=ada@example.org"] + arguments)
        #expect(result.status == 0, "git \(arguments.joined(separator: " ")): \(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A version of the assessment, committed by its author and fetched into the item's repository.
    func publish(_ title: String) throws -> String {
        let work = cli.scratch("author")
        if !FileManager.default.fileExists(atPath: work) { try git("clone", "-q", item, work) }
        try FileManager.default.createDirectory(atPath: work + "/assessments", withIntermediateDirectories: true)
        let document = #"{"title":"\#(title)","timeLimitSeconds":600,"publishedAt":"2025-01-01T00:00:00Z"}"#
        try Data(document.utf8).write(to: URL(fileURLWithPath: work + "/assessments/a1.json"))
        try git("-C", work, "add", "-A")
        try git("-C", work, "commit", "-qm", title)
        try git("--git-dir", item, "fetch", "-q", work, "+HEAD:refs/heads/main")
        return try git("--git-dir", item, "rev-parse", "main")
    }

    @Test func aSyncHoldsTheAnswerToAnUpdatedAssessmentAndNamesTheDecisions() throws {
        #expect(try cli("server", "init", server, "u1").status == 0)
        #expect(
            try cli("server", "content", "init", server, "assessments", "a1", "--schema", "edumind-content", "--author", "ada").status == 0)
        let first = try publish("Algebra")
        #expect(try cli("init", "u1", "--schema", "edumind").status == 0)
        #expect(try cli("remote", "set", server + "/u1.git").status == 0)
        #expect(try cli("sync").status == 0)
        // What a download leaves: the item's bare clone in the home's content folder.
        try git("clone", "-q", "--bare", item, cli.home + "/.content/assessments/a1.git")
        let answer =
            #"{"id":"r1","student_id":"u1","assessment_id":"a1","question_id":"q-001","response_data":"B","answered_at":1735689600000}"#
        #expect(try cli("put", "users/u1/pending_responses/a1_q-001", input: answer).status == 0)
        #expect(try cli("get", "users/u1/pending_responses/a1_q-001").stdout.contains(#""content_version": "\#(first)""#))
        let second = try publish("Algebra, corrected")
        let before = try git("--git-dir", server + "/u1.git", "rev-parse", "main")

        let sync = try cli("sync")
        #expect(sync.status == 1)
        let lines = sync.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "  held users/u1/pending_responses/a1_q-001: assessments/a1 version 1 (\(first.prefix(7))) was updated to version \(second.prefix(7))"
            ))
        #expect(
            lines.last
                == "Decide: cairn content submit-anyway assessments a1 (send them as they are), or cairn content discard assessments a1 (back to the remote's version, kept in history, and the new version downloaded)"
        )
        #expect(try git("--git-dir", server + "/u1.git", "rev-parse", "main") == before, "nothing pushed")

        let json = try cli("sync", "--json")
        #expect(json.status == 1)
        #expect(json.stdout.contains(#""held": true"#))
        #expect(json.stdout.contains(#""state": "updated""#))
        #expect(json.stdout.contains(#""serverVersion": "\#(second)""#))

        let decided = try cli("content", "submit-anyway", "assessments", "a1")
        #expect(decided.status == 0, "\(decided.stderr)")
        #expect(decided.stdout.contains("submit anyway the answers to assessments/a1"))
        let pushed = try cli("sync")
        #expect(pushed.status == 0, "\(pushed.stdout)\(pushed.stderr)")
        let log = try git("--git-dir", server + "/u1.git", "log", "--format=%B", "main")
        #expect(log.contains("Cairn-Content-Decision: submit-anyway assessments/a1 \(first)"))
        // Decided once: nothing is held any more.
        let again = try cli("content", "discard", "assessments", "a1")
        #expect(again.status == 1)
        #expect(again.stderr.hasPrefix("cairn: nothing pinned to assessments/a1 is held"))
    }
}
