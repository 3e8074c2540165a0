import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// The tool as a user meets it: the commands of the README's transcript, their output and
/// their exit status.
@Suite(.historiesVerified) struct TranscriptTests {
    let cli = CLI()

    @Test func initWriteCheckpointAndReadHistory() throws {
        #expect(try cli("init", "u1").stdout == "Created the store of user u1 at \(cli.home)/u1 (active)\n")
        #expect(try cli("init", "u2").stdout == "Created the store of user u2 at \(cli.home)/u2\n")
        #expect(try cli("users").stdout == "* u1\n  u2\n")

        let attempt =
            #"{"attemptId":"attempt-1730000000000","examId":"practice-1","score":83,"status":"passed","answers":{"Q10169":["1"]}}"#
        #expect(try cli("put", "users/u1/examAttempts/attempt-1730000000000", input: attempt).status == 0)
        let file = cli.scratch("book.json")
        try #"{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s1":{"completed":true,"updatedAt":1730000000000}}}"#
            .write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try cli("put", "users/u1/books/life-in-the-uk", file).status == 0)

        #expect(
            try cli("get", "users/u1/examAttempts/attempt-1730000000000").stdout == """
                {
                  "answers": {
                    "Q10169": [
                      "1"
                    ]
                  },
                  "attemptId": "attempt-1730000000000",
                  "examId": "practice-1",
                  "score": 83,
                  "status": "passed"
                }

                """)
        #expect(try cli("ls", "users/u1/books").stdout == "life-in-the-uk\n")
        let status = try cli("status").stdout
        #expect(
            status.hasSuffix(
                """
                2 documents not checkpointed:
                  added     users/u1/books/life-in-the-uk
                  added     users/u1/examAttempts/attempt-1730000000000

                """))

        let checkpoint = try cli("checkpoint", "-m", "First exam")
        #expect(checkpoint.status == 0)
        #expect(checkpoint.stdout.range(of: #"^Checkpoint [0-9a-f]{7}: 2 added\n$"#, options: .regularExpression) != nil)
        #expect(try cli("checkpoint").stdout == "Nothing to checkpoint.\n")
        #expect(try cli("status").stdout.hasSuffix("Nothing to checkpoint.\n"))

        #expect(try cli("put", "users/u1/examAttempts/attempt-1730000000000", input: #"{"score":90}"#).status == 0)
        try cli("checkpoint")
        let log = try cli("log", "users/u1/examAttempts/attempt-1730000000000").stdout.split(separator: "\n")
        #expect(log.count == 2)
        #expect(log[0].contains(" modified Checkpoint: 1 modified"))
        #expect(log[1].contains(" added    First exam"))
        #expect(try cli("get", "users/u1/examAttempts/attempt-1730000000000", "--at", "HEAD~1").stdout.contains("\"score\": 83"))
        #expect(try cli("log").stdout.split(separator: "\n").count == 3)
        #expect(try cli("log", "-n", "1").stdout.split(separator: "\n").count == 1)

        // Plain git reads the same history.
        #expect(try cli.git("u1", "log", "--format=%s").stdout == "Checkpoint: 1 modified\nFirst exam\nCreate the store of user u1\n")
        #expect(try cli.git("u1", "status", "--porcelain").stdout == "")
        #expect(try cli.git("u1", "fsck", "--strict").status == 0)

        // The other user sees none of it.
        #expect(try cli("use", "u2").stdout == "Active user: u2\n")
        #expect(try cli("ls", "users/u2/examAttempts").stdout == "")
        #expect(try cli("get", "users/u1/examAttempts/attempt-1730000000000").status == 1)
        #expect(try cli("--user", "u1", "ls", "users/u1/books").stdout == "life-in-the-uk\n")
    }

    @Test func cascadeDeleteOfADocumentWithSubcollections() throws {
        try cli("init", "u1")
        for path in [
            "users/u1/profiles/p1", "users/u1/profiles/p1/habits/h1",
            "users/u1/profiles/p1/habits/h1/messages/m1", "users/u1/profiles/p2",
        ] {
            #expect(try cli("put", path, input: "{}").status == 0)
        }
        try cli("checkpoint")
        let refused = try cli("rm", "users/u1/profiles/p1")
        #expect(refused.status == 1)
        #expect(refused.stderr == "cairn: users/u1/profiles/p1 has subcollections holding 2 document(s); use rm -r to delete them too\n")
        #expect(try cli("rm", "-r", "users/u1/profiles/p1").stdout == "Removed 3 documents\n")
        #expect(try cli("ls", "users/u1/profiles").stdout == "p2\n")
        #expect(try cli("checkpoint").stdout.hasSuffix(": 3 deleted\n"))
        #expect(try cli.git("u1", "ls-tree", "-r", "--name-only", "HEAD", "users").stdout == "users/u1/profiles/p2.json\n")
        #expect(try cli("get", "users/u1/profiles/p1/habits/h1", "--at", "HEAD~1").status == 0)
    }

    @Test func helpNamesEveryCommand() throws {
        let help = try cli("--help").stdout
        for command in ["init", "use", "users", "put", "get", "rm", "ls", "status", "checkpoint", "log"] {
            #expect(help.contains("  \(command) "), "\(command) is listed")
        }
    }
}
