import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Git
import Testing

@testable import CairnCore

/// A put records its path in `.git/cairn/pending` before it writes the document. A process
/// killed in that append, or a disk that filled up in it, leaves a record cut short, which
/// the next append turns into a line of its own: it must never stop the checkpoints after it.
@Suite(.historiesVerified) struct AJournalRecordCutShortTests {
    let folder = TemporaryFolder()
    var home: Home { Home(root: folder.path + "/home") }
    let path = try! DocumentPath("users/u1/books/b1")

    func book(_ version: Int) throws -> JSONValue {
        try JSONParser().parse(#"{"v": \#(version)}"#)
    }

    /// A store with one book checkpointed, and `fragment` appended to its journal as a record
    /// cut short leaves it.
    func store(cutAt fragment: String) throws -> Store {
        let store = try home.createStore("u1")
        try store.put(book(1), at: path)
        try store.checkpoint()
        try FileSystem.append(Array(("\n" + fragment).utf8), to: store.repository.gitdir + StoreLayout.pendingFile)
        #expect(try store.journal.paths() == [], "a last line without its newline is not read")
        return store
    }

    @Test(arguments: ["users/u1/books", "users/u1/books/", "users/u1", "users", "users/u1/books/b", "users/u1/books/b1.js"])
    func theNextPutAndCheckpointGoThrough(_ fragment: String) throws {
        let store = try store(cutAt: fragment)
        try store.put(book(2), at: path)
        // The fragment is a line now, kept apart from the record after it.
        #expect(try store.journal.paths() == [fragment, path.fileName])
        #expect(try store.status().pending == [FileChange(path: path.fileName, kind: .modified)])
        let result = try store.checkpoint()
        #expect(result.changes == [FileChange(path: path.fileName, kind: .modified)])
        #expect(try store.journal.paths() == [])
        #expect(try store.document(at: path, revision: "HEAD") == (try book(2)))
        // The book is still where it was, and the fragment names nothing in the checkpoint.
        let head = try #require(try store.repository.headCommit())
        #expect(try store.repository.blobID(at: path.fileName, inCommit: head.id) != nil)
        #expect(try store.repository.blobID(at: fragment, inCommit: head.id) == nil)
    }

    @Test func aFragmentNamingAFolderTheNextDeleteRemovesGoesThrough() throws {
        // The books' folder holds one book; deleting it removes the folder too.
        let store = try store(cutAt: "users/u1/books")
        try store.delete(path)
        #expect(FileSystem.kind(store.folder + "/users/u1/books") == nil)
        #expect(try store.journal.paths() == ["users/u1/books", path.fileName])
        let result = try store.checkpoint()
        #expect(result.changes == [FileChange(path: path.fileName, kind: .deleted)])
        #expect(try store.journal.paths() == [])
    }

    @Test func aFileAFolderReplacedIsStillDeleted() throws {
        // Recorded whole: a file of the last checkpoint whose name is now a folder's.
        let store = try home.createStore("u1")
        let notes = store.folder + "/users/u1/notes.txt"
        try FileSystem.makeFolders(store.folder + "/users/u1")
        try FileSystem.writeAtomically(Array("a note\n".utf8), to: notes)
        try store.journal.append(["users/u1/notes.txt"])
        HistoriesVerified.exempt(store.folder, because: "the journal is given a file no store holds, which no command writes there")
        try store.put(book(1), at: path)
        try store.checkpoint()
        let before = try #require(try store.repository.headCommit())
        #expect(try store.repository.blobID(at: "users/u1/notes.txt", inCommit: before.id) != nil)

        try FileSystem.removeFile(notes)
        try FileSystem.makeFolders(notes)
        try store.journal.append(["users/u1/notes.txt"])
        #expect(try store.pendingFiles() == ["users/u1/notes.txt"])
        let result = try store.checkpoint()
        #expect(result.changes == [FileChange(path: "users/u1/notes.txt", kind: .deleted)])
    }
}
