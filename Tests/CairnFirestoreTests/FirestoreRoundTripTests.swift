import CairnCore
import CairnFirestore
import CairnMerge
import CairnMergeLaws
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Firestore in and out through the library: the documents of each seed app's set go out as
/// a Firestore export and come back into a fresh store as they were, and an export read in and
/// written out again is the same file, in both shapes.
@Suite(.historiesVerified) struct FirestoreRoundTripTests {
    let folder = TemporaryFolder("cairn-firestore")
    static let database = FirestoreDatabase(project: "demo-progress")!

    func home(_ name: String, keys: Keyring? = nil) -> Home {
        Home(root: folder.path + "/" + name, configuration: Configuration(keys: keys.map { .keyring($0) }))
    }

    /// Every document of a store, by path, as canonical bytes.
    static func documents(of store: Store) throws -> [String: [UInt8]] {
        var found: [String: [UInt8]] = [:]
        if let own = try store.canonicalBytes(at: DocumentPath("users/\(store.uid)")) { found["users/\(store.uid)"] = own }
        // Collections below each document, found through the files of the working tree.
        var folders = [store.folder + "/users/" + store.uid]
        while let next = folders.popLast() {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: next)) ?? [] {
                let full = next + "/" + name
                var isFolder: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: full, isDirectory: &isFolder)
                if isFolder.boolValue {
                    folders.append(full)
                    continue
                }
                let relative = String(full.dropFirst(store.folder.count + 1).dropLast(".json".count))
                found[relative] = try store.canonicalBytes(at: DocumentPath(relative))
            }
        }
        return found
    }

    /// The documents that differ between two stores' documents, with both versions, for a failure's message.
    static func differences(_ found: [String: [UInt8]], _ expected: [String: [UInt8]]) -> String {
        Set(found.keys).union(expected.keys).sorted().filter { found[$0] != expected[$0] }.map { path in
            "\(path): found \(found[path].map { String(decoding: $0, as: UTF8.self) } ?? "nothing"), expected \(expected[path].map { String(decoding: $0, as: UTF8.self) } ?? "nothing")"
        }.joined(separator: "\n")
    }

    /// A store of u1 holding documents generated for every kind of `set` (three each), checkpointed.
    func seeded(_ set: String, in home: Home, seed: UInt64) throws -> (store: Store, paths: Set<DocumentPath>) {
        let store = try home.createStore("u1", schemaSet: shippedSchemaSet(set))
        let schemaSet = try store.schemaSet()
        let generator = DocumentGenerator(set: schemaSet)
        var random = SplitMix(seed: seed)
        var paths: Set<DocumentPath> = []
        for kind in schemaSet.kinds {
            for _ in 0..<3 {
                let at = try generator.path(of: kind, fresh: true, using: &random)
                try store.put(try generator.document(of: kind, at: at, using: &random), at: at)
                paths.insert(at)
            }
        }
        try store.checkpoint(message: "seeded")
        return (store, paths)
    }

    @Test(arguments: ["bonfire", "edumind", "life-in-uk", "oybc", "remi"])
    func theDocumentsOfASeedSetComeBackAsTheyWere(set: String) throws {
        let (original, paths) = try seeded(set, in: home("a"), seed: 20)
        let documents = try Self.documents(of: original)
        #expect(Set(documents.keys) == Set(paths.map(\.description)), "every document generated was written")
        // Three of each kind, but for a kind with one place (the user's own document).
        let kinds = try original.schemaSet().kinds.count
        #expect(paths.count > 2 * kinds, "\(paths.count) documents of \(kinds) kinds")

        let export = try original.exportFirestore(database: Self.database)
        #expect(export.documents == documents.count)
        // A set that declares date-time strings has them go out as timestamps.
        let declaresTimes = try shippedSchemaSet(set).files.values.contains {
            String(decoding: $0, as: UTF8.self).contains("\"date-time\"")
        }
        #expect(String(decoding: export.bytes, as: UTF8.self).contains("\"timestampValue\"") == declaresTimes)
        let restored = try home("b").createStore("u1", schemaSet: shippedSchemaSet(set))
        let imported = try restored.importFirestore(export.bytes)
        #expect(imported.checkpoint != nil && imported.documents.count == documents.count)
        #expect(imported.notes.isEmpty, "every typed value is declared: \(imported.notes)")
        let restoredDocuments = try Self.documents(of: restored)
        #expect(restoredDocuments == documents, "\(Self.differences(restoredDocuments, documents))")
        // The same file out again, and the import in one checkpoint saying what it was.
        #expect(try restored.exportFirestore().bytes == export.bytes, "the database the import recorded names the documents")
        let head = try restored.history().first
        #expect(head?.checkpoint.summary == "Firestore import: \(documents.count) documents of projects/demo-progress/databases/(default)")

        // The Node tool's form keeps them too, but for an empty document with documents
        // below it: there it is an object holding only __collections__, the way to them.
        let holders = documents.filter { path, bytes in bytes == Array("{}\n".utf8) && documents.keys.contains { $0.hasPrefix(path + "/") }
        }
        let nodeKeeps = documents.filter { holders[$0.key] == nil }
        let node = try original.exportFirestore(shape: .node)
        let viaNode = try home("c").createStore("u1", schemaSet: shippedSchemaSet(set))
        #expect(try viaNode.importFirestore(node.bytes).shape == .node)
        let viaNodeDocuments = try Self.documents(of: viaNode)
        #expect(viaNodeDocuments == nodeKeeps, "\(Self.differences(viaNodeDocuments, nodeKeeps))")
        #expect(try viaNode.exportFirestore(shape: .node).bytes == node.bytes)
        #expect(try viaNode.rememberedFirestoreDatabase() == nil, "the Node tool's form names no database")
    }

    /// `"type": "number"` admits both of Firestore's numbers: each goes out as its literal
    /// says, so an integer score stays an `integerValue` and a fraction a `doubleValue`, and a
    /// whole `doubleValue` a file holds comes back as one (`40.0`), so it goes out as it came.
    @Test func numbersGoOutAsTheirLiteralsSayAndComeBackAsWritten() throws {
        let store = try home("a").createStore("u1", schemaSet: shippedSchemaSet("life-in-uk"))
        try store.put(json(#"{"attemptId":"a1","examId":"practice-1","status":"passed","score":83}"#), at: path("users/u1/examAttempts/a1"))
        try store.put(
            json(#"{"attemptId":"a2","examId":"practice-1","status":"passed","score":83.5}"#), at: path("users/u1/examAttempts/a2"))
        let export = try store.exportFirestore(database: Self.database)
        let file = try FirestoreExportFile(parsing: export.bytes)
        #expect(file.documents.map { $0.fields["score"] } == [.integer(83), .double(.double(83.5))])
        let back = try home("b").createStore("u1", schemaSet: shippedSchemaSet("life-in-uk"))
        try back.importFirestore(export.bytes)
        #expect(try back.document(at: path("users/u1/examAttempts/a1"))?.field("score") == .integer(83))
        #expect(try back.document(at: path("users/u1/examAttempts/a2"))?.field("score") == .double(83.5))

        // A whole double from Firestore, in the same number field: 40.0, and out again as a double.
        let whole =
            #"{"documents":[{"name":"projects/p/databases/(default)/documents/users/u1/examAttempts/a3","fields":{"attemptId":{"stringValue":"a3"},"examId":{"stringValue":"practice-1"},"status":{"stringValue":"failed"},"score":{"doubleValue":40}}}]}"#
        try back.importFirestore(Array(whole.utf8))
        #expect(try back.document(at: path("users/u1/examAttempts/a3"))?.field("score") == .double(40))
        let again = try FirestoreExportFile(parsing: try back.exportFirestore().bytes)
        #expect(again.documents.first { $0.path.hasSuffix("/a3") }?.fields["score"] == .double(.integer(40)))
    }

    /// The export of an encrypted store is its documents opened, and an import into one seals them.
    @Test func anEncryptedStoreExportsItsDocumentsOpened() throws {
        let keyring = Keyring(current: StoreKey.generate())
        let sealed = try home("a", keys: keyring).createStore("u1", schemaSet: shippedSchemaSet("life-in-uk"), encrypted: true)
        try sealed.put(
            json(#"{"attemptId":"a1","examId":"practice-1","status":"passed","score":83}"#), at: path("users/u1/examAttempts/a1"))
        try sealed.checkpoint()
        let export = try sealed.exportFirestore(database: Self.database)
        #expect(String(decoding: export.bytes, as: UTF8.self).contains(#""stringValue": "practice-1""#))
        let other = try home("b", keys: keyring).createStore("u1", schemaSet: shippedSchemaSet("life-in-uk"), encrypted: true)
        try other.importFirestore(export.bytes)
        let file = FileManager.default.contents(atPath: other.folder + "/users/u1/examAttempts/a1.json")
        #expect(file.map { !String(decoding: $0, as: UTF8.self).contains("practice-1") } == true, "sealed on disk")
        #expect(try other.document(at: path("users/u1/examAttempts/a1")) == sealed.document(at: path("users/u1/examAttempts/a1")))
    }

    @Test func anExportAtACheckpointHoldsTheDocumentsOfThatCheckpoint() throws {
        let store = try home("a").createStore("u1")
        try store.put(json(#"{"n":1}"#), at: path("users/u1/notes/n1"))
        try store.checkpoint()
        try store.put(json(#"{"n":2}"#), at: path("users/u1/notes/n1"))
        try store.put(json(#"{"n":3}"#), at: path("users/u1/notes/n2"))
        let then = try FirestoreExportFile(parsing: store.exportFirestore(at: "HEAD", database: Self.database).bytes)
        #expect(then.documents == [FirestoreDocument(path: "users/u1/notes/n1", fields: ["n": .integer(1)])])
        let now = try FirestoreExportFile(parsing: store.exportFirestore(database: Self.database).bytes)
        #expect(now.documents.map(\.path) == ["users/u1/notes/n1", "users/u1/notes/n2"])
        #expect(now.documents.first?.fields["n"] == .integer(2))
        #expect(throws: CairnError.self) { try store.exportFirestore() }
    }
}
