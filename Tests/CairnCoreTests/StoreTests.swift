import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

@testable import CairnCore

/// Writes, reads, deletes and lists, as an app or the command line uses the store.
@Suite(.historiesVerified) struct StoreTests {
    let folder = TemporaryFolder()
    var home: Home { Home(root: folder.path + "/home") }

    @Test func putWritesCanonicalJSONToTheDocumentsFile() throws {
        let store = try home.createStore("u1")
        #expect(try store.put(json(#"{"b":1,"a":[true]}"#), at: path("users/u1/books/b1")) == .created)
        let file = store.folder + "/users/u1/books/b1.json"
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "{\n  \"a\": [\n    true\n  ],\n  \"b\": 1\n}\n")
        #expect(try store.document(at: path("users/u1/books/b1")) == json(#"{"a":[true],"b":1}"#))
        #expect(try store.put(json(#"{"a":[true],"b":1}"#), at: path("users/u1/books/b1")) == .unchanged)
        #expect(try store.put(json(#"{"a":[false],"b":1}"#), at: path("users/u1/books/b1")) == .updated)
    }

    /// Rewriting a document swaps a spare file in: the inode changes each time, the old
    /// content never shows half written, and a symbolic link put in a document's place by hand
    /// is replaced by a file, its target left alone.
    @Test func rewritesSwapASpareFileInAndNeverFollowALink() throws {
        let store = try home.createStore("u1")
        let file = store.folder + "/users/u1/books/b1.json"
        func inode() throws -> Int? { try FileManager.default.attributesOfItem(atPath: file)[.systemFileNumber] as? Int }
        try store.put(json(#"{"v":1}"#), at: path("users/u1/books/b1"))
        try store.put(json(#"{"v":2,"longer":"content"}"#), at: path("users/u1/books/b1"))
        let before = try inode()
        try store.put(json(#"{"v":3}"#), at: path("users/u1/books/b1"))
        #expect(try inode() != before)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "{\n  \"v\": 3\n}\n")
        // The spare holds what the last write replaced, cut to nothing of the longer one.
        let spare = store.folder + "/.git/cairn/spare"
        #expect(try String(contentsOfFile: spare, encoding: .utf8) == "{\n  \"longer\": \"content\",\n  \"v\": 2\n}\n")

        let outside = folder.path + "/outside.json"
        try "{\"kept\": true}\n".write(toFile: outside, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: file)
        try FileManager.default.createSymbolicLink(atPath: file, withDestinationPath: outside)
        try store.put(json(#"{"v":4}"#), at: path("users/u1/books/b1"))
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "{\"kept\": true}\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "{\n  \"v\": 4\n}\n")

        // A spare turned into a link is not followed either.
        try FileManager.default.removeItem(atPath: spare)
        try FileManager.default.createSymbolicLink(atPath: spare, withDestinationPath: outside)
        try store.put(json(#"{"v":5}"#), at: path("users/u1/books/b1"))
        #expect(try String(contentsOfFile: outside, encoding: .utf8) == "{\"kept\": true}\n")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "{\n  \"v\": 5\n}\n")
    }

    @Test func theUserDocumentIsTheFileBesideItsFolder() throws {
        let store = try home.createStore("u1")
        try store.put(json(#"{"schemaVersion":1}"#), at: path("users/u1"))
        #expect(FileManager.default.fileExists(atPath: store.folder + "/users/u1.json"))
        #expect(try store.list(CollectionPath("users")) == ["u1"])
    }

    @Test func refusesADocumentOutsideTheUsersTree() throws {
        let store = try home.createStore("u1")
        for text in ["users/u2/books/b1", "books/b1", "users/u2"] {
            #expect(throws: CairnError.self) { try store.put(json("{}"), at: path(text)) }
        }
        #expect(!FileManager.default.fileExists(atPath: store.folder + "/users/u2"))
        #expect(!FileManager.default.fileExists(atPath: store.folder + "/books"))
    }

    @Test func refusesAValueThatIsNotAnObjectAndMalformedJSON() throws {
        let store = try home.createStore("u1")
        try store.put(json(#"{"keep":true}"#), at: path("users/u1/books/b1"))
        #expect(throws: CairnError.self) { try store.put(json("[1,2]"), at: path("users/u1/books/b1")) }
        #expect(throws: CairnError.self) { try store.put(json: Array(#"{"a":"#.utf8), at: path("users/u1/books/b1")) }
        #expect(try store.document(at: path("users/u1/books/b1")) == json(#"{"keep":true}"#))
    }

    @Test func refusesADocumentOverOneMebibyteInCanonicalForm() throws {
        let store = try home.createStore("u1")
        // Compact input under the limit, but over it once indented one element a line.
        let elements = Array(repeating: "1", count: 300_000).joined(separator: ",")
        let value = try JSONParser().parse("{\"a\":[\(elements)]}")
        let big = try path("users/u1/big/b1")
        do {
            try store.put(value, at: big)
            Issue.record("accepted")
        } catch {
            #expect(error.message.contains("at most 1048576 bytes"))
        }
        #expect(try store.list(CollectionPath("users/u1/big")) == [])
    }

    @Test func refusesAnIDThatDiffersOnlyInCaseFromASibling() throws {
        let store = try home.createStore("u1")
        try store.put(json("{}"), at: path("users/u1/books/Book"))
        #expect(throws: CairnError.self) { try store.put(json("{}"), at: path("users/u1/books/book")) }
        #expect(throws: CairnError.self) { try store.put(json("{}"), at: path("users/u1/Books/b1")) }
        try store.put(json("{}"), at: path("users/u1/books/caf\u{E9}"))
        #expect(throws: CairnError.self) { try store.put(json("{}"), at: path("users/u1/books/cafe\u{301}")) }
        #expect(try store.list(CollectionPath("users/u1/books")) == ["Book", "caf\u{E9}"])
        // Writing the same ID again is fine.
        try store.put(json(#"{"v":2}"#), at: path("users/u1/books/Book"))
    }

    @Test func deleteRefusesSubcollectionsWithoutRecursive() throws {
        let store = try home.createStore("u1")
        try store.put(json("{}"), at: path("users/u1/profiles/p1"))
        try store.put(json("{}"), at: path("users/u1/profiles/p1/habits/h1"))
        try store.put(json("{}"), at: path("users/u1/profiles/p1/habits/h1/messages/m1"))
        #expect(throws: CairnError.self) { try store.delete(path("users/u1/profiles/p1")) }
        #expect(try store.document(at: path("users/u1/profiles/p1")) != nil)
        let removed = try store.delete(path("users/u1/profiles/p1"), recursive: true)
        #expect(
            removed.map(\.description) == [
                "users/u1/profiles/p1", "users/u1/profiles/p1/habits/h1", "users/u1/profiles/p1/habits/h1/messages/m1",
            ])
        #expect(!FileManager.default.fileExists(atPath: store.folder + "/users/u1/profiles"))
        #expect(throws: CairnError.self) { try store.delete(path("users/u1/profiles/p1")) }
    }

    @Test func listShowsDocumentIDsSortedAndNothingElse() throws {
        let store = try home.createStore("u1")
        for id in ["b2", "b10", "a1"] { try store.put(json("{}"), at: path("users/u1/books/\(id)")) }
        try store.put(json("{}"), at: path("users/u1/books/b2/notes/n1"))
        #expect(try store.list(CollectionPath("users/u1/books")) == ["a1", "b10", "b2"])
        #expect(try store.list(CollectionPath("users/u1/nothing")) == [])
    }

    @Test func switchingUsersShowsOnlyTheirDocuments() throws {
        try home.createStore("u1")
        try home.createStore("u2")
        #expect(home.users() == ["u1", "u2"])
        #expect(try home.activeUser() == "u1")
        try home.openStore().put(json(#"{"owner":"u1"}"#), at: path("users/u1/books/b1"))
        try home.use("u2")
        let second = try home.openStore()
        #expect(second.uid == "u2")
        #expect(throws: CairnError.self) { try second.document(at: path("users/u1/books/b1")) }
        #expect(try second.list(CollectionPath("users/u2/books")) == [])
        #expect(!FileManager.default.fileExists(atPath: second.folder + "/users/u1"))
        #expect(throws: CairnError.self) { try home.use("nobody") }
        #expect(throws: CairnError.self) { try home.createStore("u1") }
        #expect(throws: CairnError.self) { try home.createStore("../x") }
    }
}
