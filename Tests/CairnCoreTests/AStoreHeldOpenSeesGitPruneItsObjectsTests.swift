import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Git
import Testing

@testable import CairnCore

/// An app holds its store open while the user runs git in the same folder: a reset drops the
/// last checkpoint, and `git gc --prune=now` removes what nothing reaches any more, packs
/// the store's object database had open among them. The app then writes a document back to
/// the content of the dropped checkpoint: its next checkpoint writes the object again instead
/// of trusting the removed pack, and git finds every object its commits name.
@Suite(.historiesVerified) struct AStoreHeldOpenSeesGitPruneItsObjectsTests {
    let folder = TemporaryFolder()
    let path = try! DocumentPath("users/u1/books/b1")
    /// The book before the dropped checkpoint, and as that checkpoint had it.
    let before = try! JSONParser().parse(#"{"read": 1}"#)
    let dropped = try! JSONParser().parse(#"{"read": 2}"#)

    @discardableResult
    func git(_ store: Store, _ arguments: [String]) throws -> String {
        let result = try runProcess("/usr/bin/git", ["-C", store.folder, "-c", "gc.auto=0"] + arguments)
        #expect(result.status == 0, "git \(arguments): \(result.stderr)")
        return result.stdout
    }

    @Test func aDocumentWrittenBackToAPrunedVersionIsCheckpointedWithItsObjects() throws {
        let store = try Home(root: folder.path + "/home").createStore("u1")
        try store.put(before, at: path)
        let first = try #require(try store.checkpoint().id)
        try store.put(dropped, at: path)
        let droppedCommit = try #require(try store.checkpoint().id)
        // The store has read the dropped checkpoint's objects through its open packs.
        #expect(try store.document(at: path, revision: droppedCommit.hex) == dropped)

        try git(store, ["reset", "-q", "--hard", first.hex])
        try git(store, ["reflog", "expire", "--expire=now", "--all"])
        try git(store, ["gc", "-q", "--prune=now"])
        let gone = try runProcess("/usr/bin/git", ["-C", store.folder, "cat-file", "-e", droppedCommit.hex])
        try #require(gone.status != 0, "git kept the dropped checkpoint; the test proves nothing")

        try store.put(dropped, at: path)
        let again = try #require(try store.checkpoint().id)
        try git(store, ["fsck", "--full", "--strict", "--no-dangling"])
        #expect(try git(store, ["show", "\(again.hex):\(path.fileName)"]) == String(decoding: dropped.canonicalBytes(), as: UTF8.self))
        #expect(try store.document(at: path, revision: again.hex) == dropped)
    }
}
