import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Git
import Testing

@testable import CairnCore

/// The bytes of a store's packs and pack indexes flipped in turn: reading the documents of
/// HEAD either gives exactly what was written or fails as a corrupt store, never other content.
@Suite(.historiesVerified) struct DamagedObjectTests {
    let folder = TemporaryFolder()
    var home: Home { Home(root: folder.path + "/home") }

    /// A store of six attempts and a book in 27 checkpoints, and what HEAD holds. The
    /// store is closed on return: libgit2 shares a mapped pack between the repositories of a
    /// process, and a file changed under a mapping it checked already is not checked again.
    func makeStore() throws -> (gitdir: String, expected: [DocumentPath: JSONValue]) {
        let store = try home.createStore("u1")
        var random = SplitMix(seed: 7)
        var paths: [DocumentPath] = []
        for round in 0..<3 {
            for slot in 0..<2 {
                let path = try DocumentPath("users/u1/examAttempts/a\(round)-\(slot)")
                let notes = (0..<30).map { _ in String(random.next() % 100_000) }.joined(separator: " ")
                try store.put(json(#"{"notes":"\#(notes)","round":\#(round)}"#), at: path)
                paths.append(path)
            }
            try store.checkpoint()
        }
        // One book changed in 24 more checkpoints: the small packs are combined into one that
        // holds deltas (the book's versions, the folders' trees).
        let book = try DocumentPath("users/u1/books/b1")
        for version in 0..<24 {
            let sections = (0...version).map { #""s\#($0)":{"done":true,"at":\#($0 * 1_000)}"# }.joined(separator: ",")
            try store.put(json(#"{"sections":{\#(sections)}}"#), at: book)
            try store.checkpoint()
        }
        paths.append(book)
        var expected: [DocumentPath: JSONValue] = [:]
        for path in paths { expected[path] = try store.document(at: path, revision: "HEAD") }
        return (store.repository.gitdir, expected)
    }

    /// Every byte with `CAIRN_FLIP_EVERY=1`; every third by default (each file from another start).
    let every = Int(ProcessInfo.processInfo.environment["CAIRN_FLIP_EVERY"] ?? "") ?? 3

    @Test func everyFlippedByteIsTheRightContentOrACorruptStore() throws {
        let (gitdir, expected) = try makeStore()
        let paths = expected.keys.sorted()
        let packFolder = gitdir + "objects/pack/"
        let files = try FileManager.default.contentsOfDirectory(atPath: packFolder).sorted().map { packFolder + $0 }
        #expect(files.count >= 6)
        var (positions, refused, wrong) = (0, 0, 0)
        for file in files {
            let original = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
            for position in stride(from: files.firstIndex(of: file)! % every, to: original.count, by: every) {
                var bytes = original
                bytes[position] ^= 0x08
                try Data(bytes).write(to: URL(fileURLWithPath: file))
                positions += 1
                let fresh: Store
                do {
                    fresh = try home.openStore("u1")
                } catch {
                    // A damaged pack index is found when the store is opened.
                    refused += paths.count
                    #expect(
                        error.code == .corrupt && error.message.contains("corrupt store"),
                        "byte \(position) of \(file): \(error.message)")
                    continue
                }
                for path in paths {
                    do {
                        let value = try fresh.document(at: path, revision: "HEAD")
                        if value != expected[path] {
                            wrong += 1
                            Issue.record("byte \(position) of \(file) flipped: \(path) read as \(value)")
                        }
                    } catch {
                        refused += 1
                        #expect(
                            error.code == .corrupt && error.message.contains("corrupt store"),
                            "byte \(position) of \(file): \(error.message)")
                    }
                }
            }
            try Data(original).write(to: URL(fileURLWithPath: file))
        }
        print("Flipped \(positions) bytes of \(files.count) pack files: \(refused) reads refused as a corrupt store, \(wrong) wrong")
        #expect(refused > 0)
        #expect(wrong == 0)
    }
}
