import CairnMerge
import CairnSystem
import CairnTestSupport
import Testing

@testable import CairnCore

#if canImport(Glibc)
import Glibc
import CairnToolTestSupport
#endif

/// An app holds its store open and creates documents in a collection of hundreds, while git
/// or another program adds, removes and renames files in the same folder. A new ID that
/// differs only in case from a name in the folder is refused however that name got there —
/// the store keeps a large folder's names between creates, and must never use names the
/// folder no longer has, nor miss one it has.
@Suite(.historiesVerified) struct ACaseCollisionIsFoundWhoeverMadeTheOtherNameTests {
    let folder = TemporaryFolder()
    var home: Home { Home(root: folder.path + "/home") }

    /// A store with `count` notes (`n000`…) in `users/u1/notes`, its folder's names kept
    /// where its file system reports every change (else every check lists the folder).
    func storeWithNotes(_ count: Int = WatchedFolders.smallest + 12) throws -> Store {
        let store = try home.createStore("u1")
        for index in 0..<count {
            try store.put(.object(["index": .integer(Int64(index))]), at: DocumentPath("users/u1/notes/n" + Self.threeDigits(index)))
        }
        if Syscalls.reportsEveryChange(notes(store)), !store.watchedFolders.isWithoutWatcher {
            #expect(store.watchedFolders.isWatching(notes(store)), "the notes' names are not kept: these tests check listings only")
        }
        return store
    }

    static func threeDigits(_ number: Int) -> String {
        String(String(number + 1_000).dropFirst())
    }

    func notes(_ store: Store) -> String { store.folder + "/users/u1/notes" }

    /// Another program writes a file in the folder (not through the store).
    func writeBehind(_ store: Store, _ name: String) throws {
        try FileSystem.writeAtomically(Array("{}\n".utf8), to: notes(store) + "/" + name)
    }

    func isRefused(_ store: Store, _ id: String) throws -> Bool {
        let path = try DocumentPath("users/u1/notes/" + id)
        do throws(CairnError) {
            try store.put(.object([:]), at: path)
            return false
        } catch {
            #expect(error.message.contains("differs only in case"), "\(error.message)")
            return true
        }
    }

    @Test func aFileAnotherProgramWroteIsSeenAndOneItRemovedIsForgotten() throws {
        let store = try storeWithNotes()
        try writeBehind(store, "Other.json")
        #expect(try isRefused(store, "other"))
        #expect(unlink(notes(store) + "/Other.json") == 0)
        #expect(try !isRefused(store, "other"))
        #expect(FileSystem.kind(notes(store) + "/other.json") == .file)
    }

    /// A put of an existing note swaps its file with a spare (the kernel reports the name
    /// arriving, then leaving); a rename from elsewhere moves a name in.
    @Test func aSwappedFileAndAFileRenamedInAreSeen() throws {
        let store = try storeWithNotes()
        try store.put(.object(["changed": .bool(true)]), at: DocumentPath("users/u1/notes/n005"))
        #expect(try isRefused(store, "N005"))
        let outside = folder.path + "/Renamed.json"
        try FileSystem.writeAtomically(Array("{}\n".utf8), to: outside)
        #expect(rename(outside, notes(store) + "/Renamed.json") == 0)
        #expect(try isRefused(store, "RENAMED"))
    }

    /// A name renamed to another spelling of itself (composed to decomposed): two entries,
    /// one leaving and one arriving, both looked up again.
    @Test func aNameRespelledIsStillSeen() throws {
        let store = try storeWithNotes()
        try writeBehind(store, "caf\u{E9}.json")
        #expect(try isRefused(store, "CAF\u{C9}"))
        #expect(rename(notes(store) + "/caf\u{E9}.json", notes(store) + "/cafe\u{301}.json") == 0)
        #expect(try isRefused(store, "CAF\u{C9}"))
    }

    /// A parent of one collection moves away and back while another program adds a file to
    /// the collection, and a create in another collection reads the events meanwhile: the
    /// new file is looked up in the folder itself, not through the path it had then.
    @Test func aFileAddedWhileTheFolderWasElsewhereIsSeen() throws {
        let store = try home.createStore("u1")
        for index in 0..<(WatchedFolders.smallest + 2) {
            try store.put(.object([:]), at: DocumentPath("users/u1/a/x/notes/n" + Self.threeDigits(index)))
            try store.put(.object([:]), at: DocumentPath("users/u1/b/y/tasks/t" + Self.threeDigits(index)))
        }
        let parent = store.folder + "/users/u1/a"
        let away = folder.path + "/away"
        #expect(rename(parent, away) == 0)
        try FileSystem.writeAtomically(Array("{}\n".utf8), to: away + "/x/notes/Moved.json")
        try store.put(.object([:]), at: DocumentPath("users/u1/b/y/tasks/first"))
        #expect(rename(away, parent) == 0)
        let refused = #expect(throws: CairnError.self) { try store.put(.object([:]), at: DocumentPath("users/u1/a/x/notes/moved")) }
        #expect(refused?.message.contains("\"Moved\" already exists") == true, "\(refused?.message ?? "")")
    }

    @Test func aFolderReplacedIsListedAgain() throws {
        let store = try storeWithNotes()
        let replacement = folder.path + "/replacement"
        try FileSystem.makeFolders(replacement)
        for index in 0..<(WatchedFolders.smallest + 5) {
            try FileSystem.writeAtomically(Array("{}\n".utf8), to: replacement + "/m" + Self.threeDigits(index) + ".json")
        }
        try FileSystem.writeAtomically(Array("{}\n".utf8), to: replacement + "/Fresh.json")
        let old = folder.path + "/old"
        #expect(rename(notes(store), old) == 0)
        #expect(rename(replacement, notes(store)) == 0)
        #expect(try isRefused(store, "fresh"))
        #expect(try !isRefused(store, "N001"))
    }

    /// The folder's parent moved away and another made in its place: no event reaches the
    /// folder watched, whose path now leads to another folder.
    @Test func aFolderWhoseParentWasReplacedIsListedAgain() throws {
        let store = try storeWithNotes()
        let user = store.folder + "/users/u1"
        #expect(rename(user, folder.path + "/old-user") == 0)
        try FileSystem.makeFolders(user + "/notes")
        for index in 0..<(WatchedFolders.smallest + 5) {
            try writeBehind(store, "m" + Self.threeDigits(index) + ".json")
        }
        try writeBehind(store, "Fresh.json")
        #expect(try isRefused(store, "fresh"))
        #expect(try !isRefused(store, "N001"))
    }

    /// More changes than the kernel's queue holds: the names are listed again, and a file
    /// written after the flood is seen.
    @Test func eventsLostToAFullQueueMakeTheFolderListedAgain() throws {
        let store = try storeWithNotes()
        #expect(try !isRefused(store, "first"))
        let scratch = notes(store) + "/scratch.json"
        // Two events a round: past the kernel's queue, or past the 64 buffers one check reads
        // (about 32,000 events of this name) where the queue is larger.
        let queue =
            (try? FileSystem.read("/proc/sys/fs/inotify/max_queued_events")).flatMap { $0 }
            .flatMap { Int(String(decoding: $0.filter { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }, as: UTF8.self)) } ?? 16_384
        for _ in 0..<(min(queue, 34_000) / 2 + 100) {
            let fd = open(scratch, O_WRONLY | O_CREAT, 0o644)
            #expect(fd >= 0)
            close(fd)
            unlink(scratch)
        }
        try writeBehind(store, "Late.json")
        #expect(try isRefused(store, "late"))
    }

    /// A seeded run of creates through the store among other programs' creates, removals
    /// and renames in the same folder, and the store's own updates and deletes: each create
    /// is refused exactly when a listing of the folder made by the test has a colliding name.
    @Test func everyCreateAgreesWithAListingMadeThen() throws {
        let store = try storeWithNotes()
        var generator = SplitMix(seed: 23)
        let stems = ["a", "b", "c", "d", "e", "f"]
        func randomCase(_ text: String) -> String {
            String(text.map { generator.next() % 2 == 0 ? Character($0.uppercased()) : $0 })
        }
        var refusals = 0
        for step in 0..<300 {
            let stem = stems[Int(generator.next() % UInt64(stems.count))] + "x"
            let name = randomCase(stem)
            let file = notes(store) + "/" + name + ".json"
            switch generator.next() % 6 {
            case 0:
                try writeBehind(store, name + ".json")
            case 1:
                _ = unlink(file)
            case 2:
                let other = notes(store) + "/" + randomCase(stem) + ".json"
                _ = rename(file, other)
            case 3:
                if FileSystem.kind(file) == .file {
                    try store.put(.object(["step": .integer(Int64(step))]), at: DocumentPath("users/u1/notes/" + name))
                }
            case 4:
                if FileSystem.kind(file) == .file { try store.delete(DocumentPath("users/u1/notes/" + name)) }
            default:
                guard FileSystem.kind(file) != .file else { continue }
                let listing = FileSystem.entries(in: notes(store), followingLink: true).map(\.name)
                let expected = listing.contains { DocumentID.collides(name, withEntry: $0) }
                #expect(
                    try isRefused(store, name) == expected,
                    "step \(step): \(name) among \(listing.filter { $0.lowercased().hasPrefix(stem) })")
                if expected { refusals += 1 }
            }
        }
        #expect(refusals > 10)
    }
}
