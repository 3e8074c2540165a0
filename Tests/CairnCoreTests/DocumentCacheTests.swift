import CairnMerge
import CairnSystem
import CairnTestSupport
import Foundation
import Testing

@testable import CairnCore

#if canImport(Glibc)
import Glibc
import CairnToolTestSupport
#endif

/// A store remembers the documents it read while their files keep their stamp; any change to
/// a file, by the store, by another process or by hand, is seen at the next read.
@Suite(.historiesVerified) struct DocumentCacheTests {
    let folder = TemporaryFolder()
    var home: Home { Home(root: folder.path + "/home") }
    let path = try! DocumentPath("users/u1/books/b1")

    /// Writes the document's file by hand, bypassing the store, and gives it back the
    /// modification time it had: only its content and its change time differ.
    func editByHand(_ store: Store, _ text: String) throws {
        let file = store.folder + "/users/u1/books/b1.json"
        var before = stat()
        #expect(stat(file, &before) == 0)
        let fd = open(file, O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        _ = Array(text.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        var times = [before.st_atim, before.st_mtim]
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
    }

    @Test func aSettledDocumentIsReadOnceAndAnyChangeIsSeen() throws {
        let store = try home.createStore("u1")
        try store.put(JSONParser().parse(#"{"v": 1}"#), at: path)
        // Just written: not remembered (a second change in the same clock tick could keep
        // the stamp). The clock stops now, so that "just" holds however slow the machine.
        store.stopFileClock(at: Syscalls.now())
        #expect(try store.document(at: path) == .object(["v": .integer(1)]))
        #expect(store.documentCache[path] == nil)
        store.letTimePass(2)
        #expect(try store.document(at: path) == .object(["v": .integer(1)]))
        #expect(store.documentCache[path] != nil)
        #expect(try store.document(at: path) == .object(["v": .integer(1)]))

        // The same size, the same modification time: the change time still tells.
        try editByHand(store, "{\n  \"v\": 2\n}\n")
        #expect(try store.document(at: path) == .object(["v": .integer(2)]))

        // A write through another store object (another process, say).
        _ = try store.document(at: path)
        #expect(store.documentCache[path] != nil)
        let other = try home.openStore("u1")
        try other.put(JSONParser().parse(#"{"v": 3}"#), at: path)
        #expect(try store.document(at: path) == .object(["v": .integer(3)]))

        // A deletion.
        try other.delete(path)
        #expect(try store.document(at: path) == nil)
        #expect(store.documentCache[path] == nil)
    }
}
