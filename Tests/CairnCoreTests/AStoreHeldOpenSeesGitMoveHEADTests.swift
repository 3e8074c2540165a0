import CairnMerge
import CairnSystem
import CairnTestSupport
import Git
import GitFormat
import Testing

@testable import CairnCore

#if canImport(Glibc)
import Glibc
import CairnToolTestSupport
#endif

/// An app holds its store open for hours while the user runs git in the same folder. A put
/// reads `HEAD` only when its file's stamp changed, and a checkout by git between two puts
/// is still seen by the second; a checkpoint reads `HEAD` every time.
@Suite(.historiesVerified) struct AStoreHeldOpenSeesGitMoveHEADTests {
    let folder = TemporaryFolder()
    var home: Home { Home(root: folder.path + "/home") }
    let path = try! DocumentPath("users/u1/books/b1")

    func book(_ version: Int) throws -> JSONValue {
        try JSONParser().parse(#"{"v": \#(version)}"#)
    }

    func git(_ store: Store, _ arguments: [String]) throws {
        let result = try runProcess("/usr/bin/git", ["-C", store.folder] + arguments)
        #expect(result.status == 0, "git \(arguments): \(result.stderr)")
    }

    func headFile(_ store: Store) -> String { store.folder + "/.git/HEAD" }

    /// A store whose HEAD's stamp is remembered by its last put.
    func heldStore() throws -> Store {
        let store = try home.createStore("u1")
        try store.put(book(1), at: path)
        try store.checkpoint()
        // HEAD changed "just now" by the store's clock: read, not remembered.
        let head = try #require(FileStamp(path: headFile(store)))
        store.stopFileClock(at: head.changed)
        store.headOnBranchStamp = nil
        try store.put(book(2), at: path)
        #expect(store.headOnBranchStamp == nil)
        store.letTimePass(2)
        try store.put(book(3), at: path)
        #expect(store.headOnBranchStamp == head)
        return store
    }

    func expectRefused(_ store: Store, _ write: (Store) throws -> Void) {
        let refused = #expect(throws: CairnError.self) { try write(store) }
        #expect(refused?.message.contains("HEAD is") == true, "\(refused?.message ?? "")")
    }

    @Test(arguments: [["checkout", "-q", "--detach"], ["switch", "-q", "-c", "side"]])
    func aCheckoutBetweenTwoPutsRefusesTheSecond(_ command: [String]) throws {
        let store = try heldStore()
        try git(store, command)
        expectRefused(store) { try $0.put(book(4), at: path) }
        #expect(try store.document(at: path) == (try book(3)))
        #expect(store.headOnBranchStamp == nil)

        try git(store, ["switch", "-q", "main"])
        try store.put(book(5), at: path)
        #expect(try store.document(at: path) == (try book(5)))
    }

    @Test func aHEADRewrittenInPlaceIsSeenByItsChangeTime() throws {
        let store = try heldStore()
        // The same length, the same inode, the same modification time: only the change time,
        // which the kernel sets, tells.
        let file = headFile(store)
        let head = try #require(FileStamp(path: file))
        // Past the file system clock's tick (a few milliseconds), so the change time moves.
        usleep(20_000)
        var before = stat()
        #expect(stat(file, &before) == 0)
        let fd = open(file, O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        let text = Array("ref: refs/heads/side\n".utf8)
        #expect(text.count == Int(before.st_size))
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        let rewritten = try #require(FileStamp(path: file))
        #expect(rewritten.inode == head.inode && rewritten.size == head.size && rewritten.modified == head.modified)
        try #require(rewritten != head, "the rewrite left HEAD's stamp as it was")

        expectRefused(store) { try $0.put(book(4), at: path) }
        #expect(try store.document(at: path) == (try book(3)))
    }

    @Test func aCheckpointReadsHEADWhateverItsStamp() throws {
        let store = try heldStore()
        try git(store, ["checkout", "-q", "--detach"])
        // A file system whose `stat` lags behind a write made elsewhere: the stamp looks
        // unchanged. A put then only leaves a document pending; the checkpoint refuses.
        store.headOnBranchStamp = FileStamp(path: headFile(store))
        try store.put(book(4), at: path)
        expectRefused(store) { _ = try $0.checkpoint() }
        #expect(try store.status().pending.map(\.path) == [path.fileName])
    }

    @Test func aPutThatWouldFinishAMoveReadsHEAD() throws {
        let store = try heldStore()
        let main = try #require(try store.repository.reference("refs/heads/main"))
        try git(store, ["checkout", "-q", "--detach"])
        store.headOnBranchStamp = FileStamp(path: headFile(store))
        // What a sync killed in the middle of moving the working tree leaves: its note. To
        // finish it would move the branch, so the put reads HEAD whatever its stamp.
        try FileSystem.writeAtomically(Array("\(main.hex) \(main.hex)\n".utf8), to: store.movePath)
        expectRefused(store) { try $0.put(book(4), at: path) }
        #expect(FileSystem.kind(store.movePath) == .file, "the move is left for a writer on main to finish")
        #expect(try store.document(at: path) == (try book(3)))
    }
}
