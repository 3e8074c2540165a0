import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Git
import Testing

@testable import CairnCore

/// Checkpoints commit exactly the written documents, and leave a repository plain git
/// reads as clean and sound.
@Suite(.historiesVerified) struct CheckpointTests {
    let folder = TemporaryFolder()
    var home: Home { Home(root: folder.path + "/home") }

    @Test func commitsTheWrittenDocumentsAndLeavesGitClean() throws {
        let store = try home.createStore("u1")
        try store.put(json(#"{"score":83}"#), at: path("users/u1/examAttempts/attempt-1"))
        try store.put(json(#"{"completed":true}"#), at: path("users/u1/books/b1"))
        #expect(try store.status().pending.map(\.displayPath) == ["users/u1/books/b1", "users/u1/examAttempts/attempt-1"])
        let result = try store.checkpoint()
        #expect(result.id != nil)
        #expect(result.changes.map(\.kind) == [.added, .added])
        #expect(try store.status().pending.isEmpty)
        #expect(try git("status", "--porcelain", in: store.folder).stdout == "")
        let fsck = try git("fsck", "--strict", "--dangling", in: store.folder)
        #expect(fsck.status == 0)
        #expect(!fsck.stdout.contains("dangling"), "no object left unreferenced: \(fsck.stdout)")
        let files = try git("ls-tree", "-r", "--name-only", "HEAD", in: store.folder).stdout
        #expect(files == ".cairn/store.json\n.gitattributes\nusers/u1/books/b1.json\nusers/u1/examAttempts/attempt-1.json\n")
    }

    @Test func aCheckpointWithNothingPendingCommitsNothing() throws {
        let store = try home.createStore("u1")
        let head = try #require(try store.status().head)
        #expect(try store.checkpoint().id == nil)
        try store.put(json("{}"), at: path("users/u1/books/b1"))
        try store.delete(path("users/u1/books/b1"))
        #expect(try store.checkpoint().id == nil)
        #expect(try store.status().head == head)
    }

    @Test func recordsDeletesModificationsAndItsOwnIdentity() throws {
        let store = try home.createStore("u1")
        try store.put(json(#"{"v":1}"#), at: path("users/u1/books/b1"))
        try store.put(json(#"{"v":1}"#), at: path("users/u1/books/b2"))
        try store.checkpoint(message: "first books")
        try store.put(json(#"{"v":2}"#), at: path("users/u1/books/b1"))
        try store.delete(path("users/u1/books/b2"))
        let result = try store.checkpoint()
        #expect(
            result.changes == [
                FileChange(path: "users/u1/books/b1.json", kind: .modified),
                FileChange(path: "users/u1/books/b2.json", kind: .deleted),
            ])
        let log = try git("log", "--format=%an <%ae>|%s", in: store.folder).stdout
        #expect(
            log
                == "Cairn <u1@cairn.invalid>|Checkpoint: 1 modified, 1 deleted\nCairn <u1@cairn.invalid>|first books\nCairn <u1@cairn.invalid>|Create the store of user u1\n"
        )
        #expect(try git("status", "--porcelain", in: store.folder).stdout == "")
    }

    @Test func readsDocumentsAsTheyWereAtEarlierCheckpoints() throws {
        let store = try home.createStore("u1")
        let book = try path("users/u1/books/b1")
        try store.put(json(#"{"v":1}"#), at: book)
        try store.checkpoint()
        try store.put(json(#"{"v":2}"#), at: book)
        try store.checkpoint()
        try store.delete(book)
        try store.checkpoint()
        #expect(try store.document(at: book) == nil)
        #expect(try store.document(at: book, revision: "HEAD") == nil)
        #expect(try store.document(at: book, revision: "HEAD~1") == json(#"{"v":2}"#))
        #expect(try store.document(at: book, revision: "HEAD~2") == json(#"{"v":1}"#))
        #expect(throws: CairnError.self) { try store.document(at: book, revision: "nonsense") }
        let history = try store.history(of: book)
        #expect(history.map(\.change) == [.deleted, .modified, .added])
        #expect(try store.history().count == 4)
        #expect(try store.history(limit: 2).count == 2)
    }

    @Test func onlyThePendingPathsAreCommittedHandEditsWaitForAScan() throws {
        let store = try home.createStore("u1")
        try store.put(json(#"{"v":1}"#), at: path("users/u1/books/b1"))
        try store.checkpoint()
        // A hand edit: not recorded, so a plain checkpoint does not see it.
        try "{\"v\": 5, \"hand\": true}".write(toFile: store.folder + "/users/u1/books/b1.json", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: store.folder + "/users/u1/notes", withIntermediateDirectories: true)
        try "{\"n\":1}".write(toFile: store.folder + "/users/u1/notes/n1.json", atomically: true, encoding: .utf8)
        #expect(try store.checkpoint().id == nil)
        #expect(try store.status(scan: true).pending.map(\.displayPath) == ["users/u1/books/b1", "users/u1/notes/n1"])
        let result = try store.checkpoint(scan: true)
        #expect(result.changes.map(\.kind) == [.modified, .added])
        // The hand edit was rewritten in canonical form before it was committed.
        #expect(
            try String(contentsOfFile: store.folder + "/users/u1/books/b1.json", encoding: .utf8) == "{\n  \"hand\": true,\n  \"v\": 5\n}\n"
        )
        #expect(try git("status", "--porcelain", in: store.folder).stdout == "")
    }

    @Test func aScanRefusesFilesThatAreNotDocumentsAndCommitsNothing() throws {
        let store = try home.createStore("u1")
        let head = try store.status().head
        try "notes".write(toFile: store.folder + "/notes.txt", atomically: true, encoding: .utf8)
        try store.put(json("{}"), at: path("users/u1/books/b1"))
        #expect(throws: CairnError.self) { try store.checkpoint(scan: true) }
        #expect(try store.status().head == head)
        try FileManager.default.removeItem(atPath: store.folder + "/notes.txt")
        try "{broken".write(toFile: store.folder + "/users/u1/books/b2.json", atomically: true, encoding: .utf8)
        #expect(throws: CairnError.self) { try store.checkpoint(scan: true) }
        #expect(try store.status().head == head)
    }

    @Test func temporaryFilesOfKilledWritesAreNeitherCommittedNorShown() throws {
        let store = try home.createStore("u1")
        try store.put(json("{}"), at: path("users/u1/books/b1"))
        let leftover = store.folder + "/users/u1/books/.cairn-tmp-4242-b2.json"
        try "{\"half".write(toFile: leftover, atomically: false, encoding: .utf8)
        #expect(try git("status", "--porcelain", "--untracked-files=all", in: store.folder).stdout == "?? users/u1/books/b1.json\n")
        #expect(try store.status(scan: true).pending.map(\.path) == ["users/u1/books/b1.json"])
        #expect(FileManager.default.fileExists(atPath: leftover))
        let result = try store.checkpoint(scan: true)
        #expect(result.changes.map(\.path) == ["users/u1/books/b1.json"])
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }

    @Test func theStoreIgnoresTheMachinesGitConfiguration() throws {
        // ~/.gitconfig on this machine may name another user; the store's commits never do.
        let store = try home.createStore("u1")
        try store.put(json("{}"), at: path("users/u1/books/b1"))
        let commit = try #require(try store.checkpoint().id)
        let author = try git("log", "-1", "--format=%an|%ae|%cn|%ce", commit.hex, in: store.folder).stdout
        #expect(author == "Cairn|u1@cairn.invalid|Cairn|u1@cairn.invalid\n")
        let head = try #require(try store.status().head)
        #expect(head.id == commit)
        #expect(head.author == "Cairn <u1@cairn.invalid>")
        #expect(head.parents.count == 1)
        let time = try git("log", "-1", "--format=%ct", commit.hex, in: store.folder).stdout
        #expect("\(head.time)\n" == time)
        #expect(try git("symbolic-ref", "HEAD", in: store.folder).stdout == "refs/heads/main\n")
    }
}
