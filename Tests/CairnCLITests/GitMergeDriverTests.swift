import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Two devices of one user, each a clone of the store, worked offline; plain `git pull`
/// merges them through `cairn merge-driver`, and both directions end with the same tree.
@Suite(.historiesVerified) struct GitMergeDriverTests {
    let cli = CLI()

    /// Runs the tool on another device's home, for user u1 (a home restored with plain git
    /// has no active user yet).
    @discardableResult
    func device(_ home: String, _ arguments: String..., input: String? = nil) throws -> ProcessResult {
        try runProcess(CLI.executable, ["--home", home, "--user", "u1"] + arguments, input: input)
    }

    @Test func plainGitMergeMergesDocumentsAsCairnDoes() throws {
        let phone = cli.home
        let tablet = cli.scratch("tablet")
        try cli("init", "u1", "--schema", "life-in-uk")
        let attributes = try String(contentsOfFile: phone + "/u1/.gitattributes", encoding: .utf8)
        #expect(attributes.contains("*.json merge=cairn"))
        let driver = try cli.git("u1", "config", "merge.cairn.driver").stdout
        #expect(driver == "'\(CLI.executable)' merge-driver %O %A %B %P\n")

        let book = #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":100}},"updatedAt":100}"#
        let summary =
            #"{"schemaVersion":1,"favorites":{"Q1":true},"examSummaries":{"practice-1":{"attemptCount":1,"bestScore":80,"lastCompletedAt":"2025-12-01T10:00:00Z"}}}"#
        #expect(try cli("put", "users/u1/books/b1", input: book).status == 0)
        #expect(try cli("put", "users/u1/progress/exam", input: summary).status == 0)
        #expect(
            try cli("put", "users/u1/examAttempts/a1", input: #"{"attemptId":"a1","examId":"practice-1","status":"passed","score":80}"#)
                .status == 0)
        try cli("checkpoint", "-m", "before going offline")

        // The tablet restores the user with plain git and the same driver.
        try FileManager.default.createDirectory(atPath: tablet, withIntermediateDirectories: true)
        #expect(try runProcess("/usr/bin/git", ["clone", "-q", phone + "/u1", tablet + "/u1"]).status == 0)
        try git("config", "merge.cairn.driver", "'\(CLI.executable)' merge-driver %O %A %B %P", in: tablet + "/u1")

        // Offline on both.
        #expect(
            try cli(
                "put", "users/u1/books/b1",
                input:
                    #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":100},"s2":{"completed":true,"updatedAt":200}},"updatedAt":200}"#
            ).status == 0)
        #expect(
            try cli(
                "put", "users/u1/progress/exam",
                input:
                    #"{"schemaVersion":1,"favorites":{"Q1":true,"Q2":true},"examSummaries":{"practice-1":{"attemptCount":2,"bestScore":95,"lastCompletedAt":"2025-12-02T10:00:00Z"}}}"#
            ).status == 0)
        #expect(
            try cli("put", "users/u1/examAttempts/a2", input: #"{"attemptId":"a2","examId":"practice-1","status":"passed","score":95}"#)
                .status == 0)
        try cli("checkpoint")
        #expect(
            try device(
                tablet, "put", "users/u1/books/b1",
                input:
                    #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":false,"updatedAt":300},"s3":{"completed":true,"updatedAt":250}},"updatedAt":300}"#
            ).status == 0)
        #expect(
            try device(
                tablet, "put", "users/u1/progress/exam",
                input:
                    #"{"schemaVersion":1,"favorites":{"Q1":true},"examSummaries":{"practice-1":{"attemptCount":2,"bestScore":70,"lastCompletedAt":"2025-12-03T10:00:00Z"}}}"#
            ).status == 0)
        #expect(
            try device(
                tablet, "put", "users/u1/examAttempts/a3", input: #"{"attemptId":"a3","examId":"practice-1","status":"failed","score":70}"#
            ).status == 0)
        try device(tablet, "checkpoint")

        // Each device fetches the other's work, then both merge: in opposite directions.
        #expect(try git("fetch", "-q", tablet + "/u1", "main:refs/remotes/tablet/main", in: phone + "/u1").status == 0)
        #expect(try git("fetch", "-q", phone + "/u1", "main:refs/remotes/phone/main", in: tablet + "/u1").status == 0)
        let onPhone = try git("merge", "--no-edit", "-q", "tablet/main", in: phone + "/u1")
        #expect(onPhone.status == 0, "\(onPhone.stdout)\(onPhone.stderr)")
        let onTablet = try git("merge", "--no-edit", "-q", "phone/main", in: tablet + "/u1")
        #expect(onTablet.status == 0, "\(onTablet.stdout)\(onTablet.stderr)")
        #expect(try git("rev-parse", "HEAD^{tree}", in: phone + "/u1").stdout == git("rev-parse", "HEAD^{tree}", in: tablet + "/u1").stdout)

        let merged = try cli("get", "users/u1/books/b1").stdout
        for expected in ["\"completedCount\": 2", "\"lastSectionId\": \"s1\"", "\"updatedAt\": 300"] {
            #expect(merged.contains(expected), "\(expected) in \(merged)")
        }
        let exam = try cli("get", "users/u1/progress/exam").stdout
        for expected in ["\"attemptCount\": 3", "\"bestScore\": 95", "\"lastCompletedAt\": \"2025-12-03T10:00:00Z\"", "\"Q2\": true"] {
            #expect(exam.contains(expected), "\(expected) in \(exam)")
        }
        #expect(try cli("ls", "users/u1/examAttempts").stdout == "a1\na2\na3\n")
        // The store goes on as usual after git's merge.
        #expect(try cli.git("u1", "status", "--porcelain").stdout == "")
        #expect(
            try cli("put", "users/u1/examAttempts/a4", input: #"{"attemptId":"a4","examId":"practice-2","status":"passed","score":88}"#)
                .status == 0)
        #expect(try cli("checkpoint").status == 0)
        #expect(try cli.git("u1", "status", "--porcelain").stdout == "")
        #expect(try cli.git("u1", "fsck", "--strict").status == 0)
    }

    @Test func theDriverWritesTheMergedDocumentOverOurs() throws {
        try cli("init", "u1", "--schema", "life-in-uk")
        let folder = cli.scratch("versions")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "".write(toFile: folder + "/base", atomically: true, encoding: .utf8)
        try #"{"word":"forest","correctCount":1}"#.write(toFile: folder + "/ours", atomically: true, encoding: .utf8)
        try #"{"word":"forest","correctCount":2}"#.write(toFile: folder + "/theirs", atomically: true, encoding: .utf8)
        let result = try runProcess(
            "/bin/sh",
            [
                "-c",
                "cd '\(cli.home)/u1' && '\(CLI.executable)' merge-driver '\(folder)/base' '\(folder)/ours' '\(folder)/theirs' users/u1/words/forest.json",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: folder + "/ours", encoding: .utf8) == "{\n  \"correctCount\": 2,\n  \"word\": \"forest\"\n}\n")
        #expect(result.stderr.contains("users/u1/words/forest#/correctCount [fields] kept 2, replaced 1"))
        try "{broken".write(toFile: folder + "/theirs", atomically: true, encoding: .utf8)
        let broken = try runProcess(
            "/bin/sh",
            [
                "-c",
                "cd '\(cli.home)/u1' && '\(CLI.executable)' merge-driver '\(folder)/base' '\(folder)/ours' '\(folder)/theirs' users/u1/words/forest.json",
            ])
        #expect(broken.status == 1)
        #expect(broken.stderr.hasPrefix("cairn: cannot merge users/u1/words/forest.json: the other version is not valid JSON"))
    }
}
