import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

@testable import CairnCore

/// One writer at a time; a lock that outlived its process is recovered.
@Suite(.historiesVerified) struct StoreLockTests {
    let folder = TemporaryFolder()
    var home: Home { Home(root: folder.path + "/home") }

    /// What a writer killed in the middle of a checkpoint leaves: the lock file marked busy
    /// since `started` (its flock died with it) and libgit2's lock files `locks`.
    func leaveKilledWriter(in gitdir: String, started: Int, locks: [String]) throws {
        try "busy 999999 \(started)\n".write(toFile: gitdir + "cairn/lock", atomically: true, encoding: .utf8)
        for name in locks { try "".write(toFile: gitdir + name, atomically: true, encoding: .utf8) }
    }

    @Test func aSecondWriterWaitsThenFailsAsBusy() throws {
        let first = try home.createStore("u1")
        let second = try home.openStore("u1", lockTimeout: 0.2)
        let started = Date()
        try first.lock.withLock {
            do {
                try second.put(JSONParser().parse("{}"), at: DocumentPath("users/u1/books/b1"))
                Issue.record("the second writer got in")
            } catch let error as CairnError {
                #expect(error.code == .busy)
                #expect(error.message.contains("the store is busy"))
                #expect(error.message.contains("pid \(getpid())"))
            }
        }
        #expect(Date().timeIntervalSince(started) >= 0.2)
        // Once released, the second writer goes ahead.
        try second.put(JSONParser().parse("{}"), at: DocumentPath("users/u1/books/b1"))
    }

    /// The store keeps its lock file open between writes. Removed by hand and made again by
    /// another writer, which holds it: the store's next write waits for that writer, and does
    /// not take the lock of the file that is gone.
    @Test func aLockFileReplacedWhileTheStoreIsOpenIsTheOneTaken() throws {
        _ = try home.createStore("u1")
        let store = try home.openStore("u1", lockTimeout: 0.2)
        let path = try DocumentPath("users/u1/books/b1")
        try store.put(JSONParser().parse(#"{"n": 1}"#), at: path)
        let lockFile = store.folder + "/.git/cairn/lock"
        #expect(unlink(lockFile) == 0)
        let other = open(lockFile, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(other >= 0)
        defer { close(other) }
        #expect(flock(other, LOCK_EX) == 0)

        let refused = #expect(throws: CairnError.self) { try store.put(JSONParser().parse(#"{"n": 2}"#), at: path) }
        #expect(refused?.code == .busy, "\(refused?.message ?? "")")
        #expect(try store.document(at: path) == (try JSONParser().parse(#"{"n": 1}"#)))

        #expect(flock(other, LOCK_UN) == 0)
        try store.put(JSONParser().parse(#"{"n": 2}"#), at: path)
        // A write through git notes itself in the file at the path.
        #expect(try store.checkpoint().id != nil)
        let state = try String(contentsOfFile: lockFile, encoding: .utf8)
        #expect(state.hasPrefix("idle"), "\(state)")
    }

    @Test func aWriterKeptWaitingByAPutIsToldItsPid() throws {
        let first = try home.createStore("u1")
        let second = try home.openStore("u1", lockTimeout: 0.1)
        // A put leaves the file `idle`; the kernel's list of locks names its holder.
        var message = ""
        try first.lock.withLock(notingBusy: false) { () throws -> Void in
            do {
                try second.put(JSONParser().parse("{}"), at: DocumentPath("users/u1/books/b1"))
            } catch let error as CairnError {
                message = error.message
            }
        }
        #expect(message.contains("the store is busy: another cairn process (pid \(getpid()))"), "\(message)")
    }

    @Test func locksLeftByAKilledWriterAreRemovedOnlyIfTheyAreItsOwn() throws {
        let store = try home.createStore("u1")
        let gitdir = store.folder + "/.git/"
        // Its lock files are newer than its start.
        try leaveKilledWriter(
            in: gitdir, started: Int(Date().timeIntervalSince1970) - 5,
            locks: ["index.lock", "refs/heads/main.lock", "sharedindex.0123.lock"])
        try store.put(JSONParser().parse("{}"), at: DocumentPath("users/u1/books/b1"))
        #expect(try store.checkpoint().id != nil)
        for name in ["index.lock", "refs/heads/main.lock", "sharedindex.0123.lock"] {
            #expect(!FileManager.default.fileExists(atPath: gitdir + name), "\(name) removed")
        }
        // The state is padded to a fixed width, so writing it never changes the file's size.
        let state = try String(contentsOfFile: gitdir + "cairn/lock", encoding: .utf8)
        #expect(state.trimmingCharacters(in: .whitespacesAndNewlines) == "idle")
        #expect(state.utf8.count == 64)
    }

    @Test func aGitLockOlderThanTheKilledWriterIsLeftAlone() throws {
        let store = try home.createStore("u1")
        let gitdir = store.folder + "/.git/"
        try leaveKilledWriter(in: gitdir, started: Int(Date().timeIntervalSince1970) + 3600, locks: ["refs/heads/main.lock"])
        try store.put(JSONParser().parse("{}"), at: DocumentPath("users/u1/books/b1"))
        do {
            try store.checkpoint()
            Issue.record("a foreign lock was taken over")
        } catch {
            #expect(error.code == .busy)
            #expect(error.message.contains(".lock"))
        }
        #expect(FileManager.default.fileExists(atPath: gitdir + "refs/heads/main.lock"))
    }

    @Test func aPutLeavesTheLockFileAsItWasAndAWriteThroughGitNotesItself() throws {
        let store = try home.createStore("u1")
        let lockFile = store.folder + "/.git/cairn/lock"
        func state() throws -> String {
            try String(contentsOfFile: lockFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        func modified() throws -> Date {
            try FileManager.default.attributesOfItem(atPath: lockFile)[.modificationDate] as! Date
        }
        try store.put(JSONParser().parse("{}"), at: DocumentPath("users/u1/books/b1"))
        let before = try modified()
        Thread.sleep(forTimeInterval: 0.02)
        try store.put(JSONParser().parse(#"{"a":1}"#), at: DocumentPath("users/u1/books/b1"))
        try store.delete(DocumentPath("users/u1/books/b1"))
        #expect(try modified() == before, "a put and a delete do not write the lock file")
        #expect(try state() == "idle")
        // Inside a put's holding, a write through libgit2 notes itself first.
        var seen: [String] = []
        try store.lock.withLock(notingBusy: false) { () throws -> Void in
            seen.append(try state())
            try store.lock.withLock { () throws -> Void in seen.append(try state()) }
        }
        #expect(seen.count == 2)
        #expect(seen.first == "idle")
        #expect(seen.last?.hasPrefix("busy \(getpid()) ") == true)
        #expect(try state() == "idle")
    }

    @Test func aPutClearsAKilledWritersLocksOnceAndLeavesLaterOnesAlone() throws {
        let store = try home.createStore("u1")
        let gitdir = store.folder + "/.git/"
        try leaveKilledWriter(in: gitdir, started: Int(Date().timeIntervalSince1970) - 5, locks: ["index.lock"])
        try store.put(JSONParser().parse("{}"), at: DocumentPath("users/u1/books/b1"))
        #expect(!FileManager.default.fileExists(atPath: gitdir + "index.lock"), "the killed writer's lock removed")
        // A lock some other program takes afterwards is not the killed writer's: the note was
        // replaced, so the next writer does not take it for one.
        try "".write(toFile: gitdir + "refs/heads/main.lock", atomically: true, encoding: .utf8)
        do {
            try store.checkpoint()
            Issue.record("a lock taken after the recovery was removed")
        } catch {
            #expect(error.code == .busy)
        }
        #expect(FileManager.default.fileExists(atPath: gitdir + "refs/heads/main.lock"))
    }
}
