@testable import CairnCore
import CairnMerge
import CairnTestSupport
import Git
import Testing

/// An app holds its store open while the user runs git in the same folder: a reset drops the
/// last checkpoint, and `git gc --prune=now` removes what nothing reaches any more, packs
/// the store's object database had open among them. The app then writes a document back to
/// the content of the dropped checkpoint: its next checkpoint writes the object again instead
/// of trusting the removed pack, and git finds every object its commits name.
@Suite struct AStoreHeldOpenSeesGitPruneItsObjectsTests {
    let folder = TemporaryFolder()
    var home: Home { Home(root: folder.path + "/home") }
    let path = try! DocumentPath("users/u1/books/b1")

    func book(_ version: Int) throws -> JSONValue {
        try JSONParser().parse(#"{"v": \#(version)}"#)
    }

    @discardableResult
    func git(_ store: Store, _ arguments: [String]) throws -> String {
        let result = try runProcess("/usr/bin/git", ["-C", store.folder, "-c", "gc.auto=0"] + arguments)
        #expect(result.status == 0, "git \(arguments): \(result.stderr)")
        return result.stdout
    }

    @Test func aDocumentWrittenBackToAPrunedVersionIsCheckpointedWithItsObjects() throws {
        let store = try home.createStore("u1")
        try store.put(book(1), at: path)
        let first = try #require(try store.checkpoint().id)
        try store.put(book(2), at: path)
        let dropped = try #require(try store.checkpoint().id)
        // The store has read the dropped checkpoint's objects through its open packs.
        #expect(try store.document(at: path, revision: dropped.hex) == (try book(2)))

        try git(store, ["reset", "-q", "--hard", first.hex])
        try git(store, ["reflog", "expire", "--expire=now", "--all"])
        try git(store, ["gc", "-q", "--prune=now"])
        let gone = try runProcess("/usr/bin/git", ["-C", store.folder, "cat-file", "-e", dropped.hex])
        try #require(gone.status != 0, "git kept the dropped checkpoint; the test proves nothing")

        try store.put(book(2), at: path)
        let again = try #require(try store.checkpoint().id)
        try git(store, ["fsck", "--full", "--strict", "--no-dangling"])
        #expect(try git(store, ["show", "\(again.hex):\(path.fileName)"]) == String(decoding: try book(2).canonicalBytes(), as: UTF8.self))
        #expect(try store.document(at: path, revision: again.hex) == (try book(2)))
    }
}
