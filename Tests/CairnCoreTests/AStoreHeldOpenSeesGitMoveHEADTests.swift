@testable import CairnCore
import CairnMerge
import CairnTestSupport
import Git
import Foundation
import Testing

/// An app holds its store open for hours while the user runs git in the same folder. A write
/// reads `HEAD` only when its file's stamp changed, and a checkout by git between two writes
/// is still seen by the second.
@Suite struct AStoreHeldOpenSeesGitMoveHEADTests {
    let folder = TemporaryFolder()
    var home: Home { Home(root: folder.path + "/home") }
    let path = try! DocumentPath("users/u1/books/b1")

    func book(_ version: Int) throws -> JSONValue {
        try JSONParser().parse(#"{"v": \#(version)}"#)
    }

    func git(_ store: Store, _ arguments: String...) throws {
        let result = try runProcess("/usr/bin/git", ["-C", store.folder, "-c", "user.name=T", "-c", "user.email=t@example.invalid"] + arguments)
        #expect(result.status == 0, "git \(arguments): \(result.stderr)")
    }

    /// Moves the time the store compares file stamps with `seconds` past the real time.
    func pass(_ seconds: Int, for store: Store) {
        store.fileClock = {
            var now = Syscalls.now()
            now.seconds += seconds
            return now
        }
    }

    @Test(arguments: [["checkout", "-q", "--detach"], ["switch", "-q", "-c", "side"]])
    func aCheckoutBetweenTwoPutsRefusesTheSecond(_ command: [String]) throws {
        let store = try home.createStore("u1")
        try store.put(book(1), at: path)
        try store.checkpoint()
        // HEAD just written (by the first checkpoint): read, not remembered.
        try store.put(book(2), at: path)
        #expect(store.headOnBranchStamp == nil)
        pass(2, for: store)
        try store.put(book(3), at: path)
        #expect(store.headOnBranchStamp != nil)

        let result = try runProcess("/usr/bin/git", ["-C", store.folder] + command)
        #expect(result.status == 0, "\(result.stderr)")
        let refused = #expect(throws: CairnError.self) { try store.put(book(4), at: path) }
        #expect(refused?.message.contains("HEAD is") == true, "\(refused?.message ?? "")")
        #expect(try store.document(at: path) == (try book(3)))
        #expect(store.headOnBranchStamp == nil)

        try git(store, "switch", "-q", "main")
        try store.put(book(5), at: path)
        #expect(try store.document(at: path) == (try book(5)))
    }

    @Test func aJournalRecordCutShortStaysALineOfItsOwn() throws {
        let store = try home.createStore("u1")
        try store.put(book(1), at: path)
        try store.checkpoint()
        let journal = store.repository.gitdir + StoreLayout.pendingFile
        // What a power cut in the middle of an append can leave: a record without its end.
        try FileSystem.append(Array("\nusers/u1/books/b".utf8), to: journal)
        #expect(try store.journal.paths() == [])
        try store.put(book(2), at: path)
        #expect(try store.journal.paths() == ["users/u1/books/b", path.fileName])
        try store.checkpoint()
        #expect(try store.journal.paths() == [])
        #expect(try store.document(at: path) == (try book(2)))
        #expect(try store.status().pending.isEmpty)
    }
}
