import CairnMerge
import CairnSystem
import CairnTestSupport
import Dispatch
import Testing

@testable import CairnCore

#if canImport(Glibc)
import Glibc
import CairnToolTestSupport
#endif

/// An app holds its store open while the user runs git in the same folder, and git brings
/// another schema set: a `git pull` of a migration made on another clone. The next put is
/// checked against the set git brought, not the one the store read before; a schema file
/// rewritten in place is read again by the next checkpoint.
@Suite(.historiesVerified) struct AStoreHeldOpenSeesTheSchemaSetGitBroughtTests {
    let folder = TemporaryFolder()
    var home: Home { Home(root: folder.path + "/home") }
    let path = try! DocumentPath("users/u1/notes/n1")
    let schemaFile = ".cairn/schema/note.schema.json"

    /// Any object is a note.
    static let loose = #"{"x-cairn":{"path":"users/{uid}/notes/{id}"},"type":"object","properties":{"text":{"type":"string"}}}"#
    /// A note has a text.
    static let strict =
        #"{"x-cairn":{"path":"users/{uid}/notes/{id}"},"type":"object","required":["text"],"properties":{"text":{"type":"string"}}}"#

    func note(_ json: String) throws -> JSONValue { try JSONParser().parse(json) }

    func git(_ folder: String, _ arguments: [String]) throws {
        let result = try runProcess("/usr/bin/git", ["-C", folder, "-c", "user.name=T", "-c", "user.email=t@example.invalid"] + arguments)
        #expect(result.status == 0, "git \(arguments): \(result.stderr)")
    }

    /// A store that read its set (the loose one) at a put, and trusts its folder's stamp.
    func heldStore() throws -> Store {
        let store = try home.createStore(
            "u1", schemaSet: SchemaSetFiles(name: "notes", files: ["note.schema.json": Array(Self.loose.utf8)]))
        store.letTimePass(2)
        try store.put(note(#"{"title": "first"}"#), at: path)
        try store.checkpoint()
        #expect(store.loadedSchemaSet != nil && store.schemaFolderStamp != nil)
        return store
    }

    func expectRefused(_ store: Store, _ json: String) throws {
        let refused = #expect(throws: CairnError.self) { try store.put(note(json), at: path) }
        #expect(refused?.message.contains("breaks its schema") == true, "\(refused?.message ?? "")")
    }

    @Test func aSetPulledByGitChecksTheNextPut() throws {
        let store = try heldStore()
        let other = folder.path + "/other"
        try git(folder.path, ["clone", "-q", store.folder, other])
        try FileSystem.writeAtomically(Array(Self.strict.utf8), to: other + "/" + schemaFile)
        try git(other, ["commit", "-q", "-am", "Notes have a text"])
        // git's checkout replaces the file: the folder's stamp changes.
        try git(store.folder, ["pull", "-q", "--ff-only", other, "main"])

        try expectRefused(store, #"{"title": "second"}"#)
        #expect(try store.document(at: path) == (try note(#"{"title": "first"}"#)))
        try store.put(note(#"{"text": "second"}"#), at: path)
    }

    /// A put checks its document before it takes the lock. When it has to wait for another
    /// writer, which changes the set meanwhile (a sync that merged a migration), the document
    /// is checked again against the set it is written under.
    @Test func aPutThatWaitedForTheLockIsCheckedAgainstTheSetChangedMeanwhile() throws {
        let store = try heldStore()
        let writers = TwoWriters(putting: store, holding: try home.openStore("u1"))
        let document = try note(#"{"title": "second"}"#)
        let (path, schema, strict) = (path, store.folder + "/" + schemaFile, Self.strict)
        let held = DispatchSemaphore(value: 0)
        Syscalls.inTwoThreads { thread in
            if thread == 1 {
                held.wait()
                writers.put(document, at: path)
                return
            }
            do {
                try writers.holding.lock.withLock {
                    held.signal()
                    // The put has checked its document by now and waits for the lock.
                    Syscalls.sleep(seconds: 0.3)
                    // Replaced, as a checkout replaces it: the folder's stamp changes.
                    try FileSystem.writeAtomically(Array(strict.utf8), to: schema)
                }
            } catch {
                writers.holdingFailed = error
                held.signal()
            }
        }
        #expect(writers.holdingFailed == nil, "\(writers.holdingFailed.map { "\($0)" } ?? "")")
        let refused = try #require(writers.refusal)
        #expect(refused.message.contains("breaks its schema"), "\(refused.message)")
        #expect(try store.document(at: path) == (try note(#"{"title": "first"}"#)))
    }

    /// A store that puts on a thread of its own, and the error it ended with; another store of
    /// the same user that holds the lock meanwhile.
    final class TwoWriters: @unchecked Sendable {
        let putting: Store
        let holding: Store
        var refusal: CairnError?
        var holdingFailed: (any Error)?

        init(putting: Store, holding: Store) {
            (self.putting, self.holding) = (putting, holding)
        }

        func put(_ document: JSONValue, at path: DocumentPath) {
            do throws(CairnError) {
                try putting.put(document, at: path)
            } catch {
                refusal = error
            }
        }
    }

    @Test func aSchemaFileRewrittenInPlaceIsReadAgainByTheNextCheckpoint() throws {
        let store = try heldStore()
        // The same file, written over: the folder's stamp stays as it was.
        let file = store.folder + "/" + schemaFile
        let before = try #require(FileStamp(path: store.folder + "/.cairn/schema", kind: .folder))
        let fd = open(file, O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        _ = Array(Self.strict.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        #expect(FileStamp(path: store.folder + "/.cairn/schema", kind: .folder) == before)
        try git(store.folder, ["commit", "-q", "-am", "Notes have a text"])

        // The commit moved the branch: the checkpoint compares every file, and reads the set.
        try store.checkpoint()
        try expectRefused(store, #"{"title": "second"}"#)
    }

    @Test func aSetReadInItsFoldersFirstSecondIsReadOnceMoreWhenItSettles() throws {
        // A new store: its schema folder changed just now, so its stamp is not trusted yet.
        let store = try home.createStore(
            "u1", schemaSet: SchemaSetFiles(name: "notes", files: ["note.schema.json": Array(Self.loose.utf8)]))
        let folder = store.folder + "/.cairn/schema"
        let made = try #require(FileStamp(path: folder, kind: .folder))
        store.stopFileClock(at: made.changed)
        try store.put(note(#"{"title": "first"}"#), at: path)
        // A second change in the same tick of the file system's clock keeps the stamp: a file
        // rewritten in place.
        let fd = open(store.folder + "/" + schemaFile, O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        _ = Array(Self.strict.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        #expect(FileStamp(path: folder, kind: .folder) == made)
        // Once the folder has settled, the set is read once more.
        store.letTimePass(2)
        try expectRefused(store, #"{"title": "second"}"#)
    }
}
