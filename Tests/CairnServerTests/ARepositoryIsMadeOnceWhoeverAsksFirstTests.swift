import CairnCore
import CairnServer
import CairnTestSupport
import CairnToolTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

/// A user's repository is made by their first sync (`Server.provision`): made whole beside
/// its place and renamed in, so that first syncs at once make one repository, each finds it
/// whole, and no copy is left beside it.
@Suite(.historiesVerified) struct ARepositoryIsMadeOnceWhoeverAsksFirstTests {
    let folder = TemporaryFolder("cairn-provision")

    @Test func eightFirstRequestsAtOnceMakeOneRepository() throws {
        let made = Mutex(0)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do {
                if try Server.provision(uid: "u1", in: folder.path, cairn: "cairn", schemaSet: nil) { made.withLock { $0 += 1 } }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(made.withLock { $0 } == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["u1.git"])
        let fsck = try runProcess("/usr/bin/git", ["--git-dir", folder.path + "/u1.git", "fsck", "--strict"])
        #expect(fsck.status == 0, "\(fsck.stderr)")
        #expect(try runProcess("/usr/bin/git", ["--git-dir", folder.path + "/u1.git", "config", "cairn.uid"]).stdout == "u1\n")
        #expect(FileManager.default.isExecutableFile(atPath: folder.path + "/u1.git/hooks/pre-receive"))
        // Made already: nothing more.
        #expect(try !Server.provision(uid: "u1", in: folder.path, cairn: "cairn"))
        // An ID Cairn refuses makes nothing.
        #expect(throws: CairnError.self) { try Server.provision(uid: "..", in: folder.path, cairn: "cairn") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["u1.git"])
    }

    /// Each form of a refusal of the hook has its rule, the label pushes are counted by.
    @Test func eachRefusalOfTheHookHasItsRule() {
        let cases: [(String, String)] = [
            ("user u2 may not push to the progress of u1", "user"),
            ("user bo is not an author of assessments (content/assessments/authors); only authors publish content", "user"),
            ("the push is not a fast-forward of 1a2b3c4: history is never rewritten; fetch and merge first", "history"),
            ("deleting main is refused: progress is kept for good", "history"),
            ("commit 1a2b3c4: the merge of 1a2b3c4 and 5d6e7f8 is not what the policies give: users/u1/books/b1 differs", "merge"),
            ("users/u1/examAttempts/a1 is append-only (exam-attempt.schema.json): an existing document is never changed", "append-only"),
            ("users/u1/examAttempts/a2 breaks its schema (exam-attempt.schema.json) at /score: is 150", "schema"),
            ("users/u1/notes/n2 is 1100011 bytes; a document is at most 1048576 bytes", "size"),
            ("users/u1/notes/n1 is not valid JSON: invalid JSON at line 1", "json"),
            ("users/u1/books/b1: derived field completedCount is 1, expected 2 (book.schema.json)", "derived"),
            (
                ".cairn/assets/users/u1/notes/n1/.photo points to the asset abc, which the server's asset storage does not have: upload it",
                "assets"
            ),
            (
                "users/u1/books/b1 is not encrypted, and the store is: every document of an encrypted store is sealed with its key",
                "encryption"
            ),
            ("commit 1a2b3c4: users/u2/books/b1.json belongs to another user than u1", "layout"),
            ("commit 1a2b3c4: notes.txt is outside the store's folders (users/u1/, .cairn/)", "layout"),
            ("cannot check the push: something else", "other"),
        ]
        for (refusal, rule) in cases {
            #expect(PushRefusalRule.label(of: refusal) == rule, "\(refusal)")
        }
    }
}
