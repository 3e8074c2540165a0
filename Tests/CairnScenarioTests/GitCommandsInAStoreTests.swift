import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// A user runs ordinary git commands in a store between Cairn's: the cases that once lost a
/// write or left Cairn stuck, each as it was first found.
@Suite(.historiesVerified) struct GitCommandsInAStoreTests {
    static let attempt = #"{"attemptId":"a1","examId":"e1","status":"passed","score":80}"#

    func summary(_ count: Int) -> String { #"{"examSummaries":{"e1":{"attemptCount":\#(count)}}}"# }

    /// A store with the life-in-uk set, synced once with a bare remote.
    func phone() throws -> Devices {
        let devices = try Devices(schema: "life-in-uk")
        try devices.start("phone")
        return devices
    }

    @Test func aStashAndPopBeforeACheckpointRevertsNothing() throws {
        let devices = try phone()
        try devices.put("phone", "users/u1/progress/exam", summary(1))
        #expect(try devices.on("phone", "checkpoint").status == 0)
        try devices.put("phone", "users/u1/examAttempts/a1", Self.attempt)
        #expect(try devices.on("phone", "checkpoint").status == 0)
        try devices.put("phone", "users/u1/progress/exam", summary(2))
        #expect(try devices.git("phone", "stash").contains("Saved"))
        _ = try devices.git("phone", "stash", "pop")
        #expect(try devices.on("phone", "checkpoint").status == 0)

        #expect(try devices.git("phone", "status", "--short") == "")
        let staged = try devices.git("phone", "ls-files").split(separator: "\n")
        #expect(Set(staged).count == staged.count)
        // A later commit by hand commits what the checkpoint did, not the old content.
        _ = try devices.git(
            "phone", "-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", "empty")
        #expect(try devices.git("phone", "show", "HEAD:users/u1/progress/exam.json").contains("\"attemptCount\": 2"))
        try devices.sync("phone")
        let remote = try #require(try devices.remoteDocument("users/u1/progress/exam"))
        #expect(remote == (try JSONParser().parse(Array(summary(2).utf8))))
        #expect(try devices.remoteGit("fsck", "--strict").status == 0)
    }

    @Test(arguments: [["checkout", "-q", "HEAD~1"], ["checkout", "-q", "--detach"], ["switch", "-q", "-c", "side"]])
    func writesAreRefusedWhileHEADIsOffMain(_ command: [String]) throws {
        let devices = try phone()
        try devices.put("phone", "users/u1/examAttempts/a1", Self.attempt)
        #expect(try devices.on("phone", "checkpoint").status == 0)
        try devices.put("phone", "users/u1/progress/exam", summary(1))
        let main = try devices.git("phone", "rev-parse", "main")
        #expect(try runProcess("/usr/bin/git", ["-C", devices.store("phone")] + command).status == 0)
        let where_ = command[0] == "switch" ? "on branch side" : "detached at"

        for arguments in [["checkpoint"], ["sync"], ["put", "users/u1/progress/exam"], ["rm", "users/u1/examAttempts/a1"]] {
            let result = try devices.on("phone", arguments, input: summary(5))
            #expect(result.status == 1, "\(arguments): \(result.stdout)")
            let lines = result.stderr.split(separator: "\n")
            #expect(
                lines.count == 1 && result.stderr.contains("HEAD is \(where_)") && result.stderr.contains("switch main"),
                "\(arguments): \(result.stderr)")
        }
        #expect(try devices.git("phone", "rev-parse", "main") == main)
        #expect(try devices.git("phone", "diff", "--cached", "--name-only") == "")
        let status = try devices.on("phone", "status")
        #expect(status.stdout.contains("HEAD is \(where_)"), "\(status.stdout)")

        _ = try devices.git("phone", "switch", "-q", "main")
        #expect(try devices.on("phone", "sync").status == 0)
        #expect(try devices.remoteDocument("users/u1/progress/exam") == (try JSONParser().parse(Array(summary(1).utf8))))
        #expect(try devices.git("phone", "status", "--short") == "")
    }

    @Test func aResetOfACheckpointIsCheckpointedAgain() throws {
        let devices = try phone()
        try devices.put("phone", "users/u1/examAttempts/a1", Self.attempt)
        #expect(try devices.on("phone", "checkpoint").status == 0)
        _ = try devices.git("phone", "reset", "-q", "--mixed", "HEAD~1")
        let status = try devices.on("phone", "status")
        #expect(status.stdout.contains("added     users/u1/examAttempts/a1"), "\(status.stdout)")
        #expect(try devices.on("phone", "sync").status == 0)
        #expect(try devices.remoteDocument("users/u1/examAttempts/a1") != nil)
        #expect(try devices.git("phone", "status", "--short") == "")
    }

    @Test func theIndexFormFollowsCoreSplitIndex() throws {
        let devices = try phone()
        func indexIsSplit() throws -> Bool {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: devices.store("phone") + "/.git/index")))
            return bytes.indices.dropLast(3).contains { Array(bytes[$0..<$0 + 4]) == Array("link".utf8) }
        }
        #expect(try !indexIsSplit())
        _ = try devices.git("phone", "update-index", "--split-index")
        try devices.put("phone", "users/u1/examAttempts/a1", Self.attempt)
        #expect(try devices.on("phone", "checkpoint").status == 0)
        #expect(try !indexIsSplit(), "a small store's index is written whole by default")

        _ = try devices.git("phone", "config", "core.splitIndex", "true")
        try devices.put("phone", "users/u1/progress/exam", summary(1))
        #expect(try devices.on("phone", "checkpoint").status == 0)
        #expect(try indexIsSplit())
        #expect(try devices.git("phone", "status", "--short") == "")

        _ = try devices.git("phone", "config", "core.splitIndex", "false")
        try devices.put("phone", "users/u1/progress/exam", summary(2))
        #expect(try devices.on("phone", "checkpoint").status == 0)
        #expect(try !indexIsSplit())
        #expect(try devices.git("phone", "status", "--short") == "")
        #expect(try devices.git("phone", "fsck", "--strict").isEmpty)
    }

    @Test func aHandCommitThatBreaksTheServersRulesIsNeverSent() throws {
        let devices = try phone()
        let remoteBefore = try devices.remoteMain()
        let file = devices.store("phone") + "/users/u1/examAttempts/a9.json"
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(#"{"attemptId":"a9","examId":"e1","score":150,"status":"passed"}"#.utf8).write(to: URL(fileURLWithPath: file))
        _ = try devices.git("phone", "add", "users")
        _ = try devices.git("phone", "-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "by hand")
        HistoriesVerified.exemptHead(
            of: devices.store("phone"), because: "a hand commit that breaks the schema, kept in history under the restore that undoes it")
        try devices.put("phone", "users/u1/examAttempts/a2", Self.attempt.replacingOccurrences(of: "a1", with: "a2"))

        // A path remote runs no hook: the store checks what it is about to push itself.
        let refused = try devices.on("phone", "sync")
        #expect(refused.status == 1)
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("was not sent") && refused.stderr.contains("/score")
                && refused.stderr.contains("run: cairn restore users/u1/examAttempts/a9,"),
            "\(refused.stderr)")
        #expect(try devices.remoteMain() == remoteBefore)

        #expect(try devices.on("phone", "restore", "users/u1/examAttempts/a9").status == 0)
        try devices.sync("phone")
        #expect(try devices.remoteDocument("users/u1/examAttempts/a9") == nil)
        #expect(try devices.remoteDocument("users/u1/examAttempts/a2") != nil)
    }
}
