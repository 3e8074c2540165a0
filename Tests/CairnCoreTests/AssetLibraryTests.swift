import CairnCore
import CairnMerge
import CairnServer
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Assets through the library, with a set nobody here wrote (a field-notes app whose notes
/// carry a sketch): attached through the app's `ProgressStore`, carried by an import, kept by
/// a repair, refused where they would not be safe.
@Suite(.historiesVerified) struct AssetLibraryTests {
    let folder = TemporaryFolder()
    let options = SyncOptions(retry: .none, sleep: { _ in })
    static let set = SchemaSetFiles(
        name: "field-notes",
        files: [
            "note.schema.json": Array(
                #"{"x-cairn":{"path":"users/{uid}/notes/{id}","assets":{"sketch":{"maxBytes":100000}}},"type":"object","required":["text"],"properties":{"text":{"type":"string"},"sketch":{"type":["object","null"]}}}"#
                    .utf8),
            "entry.schema.json": Array(
                #"{"x-cairn":{"path":"users/{uid}/entries/{id}","assets":{"photo":{}}},"x-merge":"append-only","type":"object","properties":{"at":{"type":"string"},"photo":{"type":["object","null"]}}}"#
                    .utf8),
        ])

    func home(_ name: String) -> Home {
        Home(root: folder.path + "/" + name)
    }

    /// A new file of `count` random bytes; its path and bytes.
    func file(_ name: String, _ count: Int = 2_000) throws -> (path: String, bytes: Data) {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let path = folder.path + "/" + name
        try bytes.write(to: URL(fileURLWithPath: path))
        return (path, bytes)
    }

    @Test func theAppAttachesASketchThroughItsProgressStoreAndAnotherDeviceReadsIt() async throws {
        _ = try Server.createRepositories(in: folder.path + "/server", uids: ["u1"], cairn: "cairn")
        let remote = try RemoteURL(folder.path + "/server/u1.git")
        let phone = home("phone")
        try phone.createStore("u1", schemaSet: Self.set).setRemote(remote)
        let app = try ProgressStore(home: phone, user: "u1")
        let sketch = try file("sketch.png")
        let references = try app.put(
            .object(["text": .string("heron at dusk")]), at: "users/u1/notes/n1",
            attaching: [AssetAttachment(field: "sketch", file: sketch.path, mediaType: "image/png")])
        #expect(references.count == 1 && references[0].size == 2_000 && references[0].mediaType == "image/png")
        #expect(try app.get("users/u1/notes/n1")?.field("sketch") == references[0].json)
        _ = try await app.sync(options)

        let laptop = try home("laptop").cloneStore(from: remote, uid: "u1", options: options)
        let note = try DocumentPath("users/u1/notes/n1")
        #expect(try laptop.assets().map(\.isLocal) == [false])
        let read = try laptop.assetFile("sketch", of: note)
        #expect(FileManager.default.contents(atPath: read) == sketch.bytes)
        #expect(try laptop.assets().map(\.isLocal) == [true])
    }

    @Test func aWriteThatPointsToAnAssetThisDeviceDoesNotHoldIsRefused() throws {
        let store = try home("phone").createStore("u1", schemaSet: Self.set)
        let stranger = AssetReference(oid: String(repeating: "ab", count: 32), size: 10)
        let refused = #expect(throws: CairnError.self) {
            try store.put(.object(["text": .string("x"), "sketch": stranger.json]), at: DocumentPath("users/u1/notes/n1"))
        }
        #expect(refused?.message == "users/u1/notes/n1: sketch points to the asset \(stranger.oid), which this store does not hold")
        // The way out is a value the app words; the library's own words name no command.
        #expect(refused?.remedy == .addAsset(path: try DocumentPath("users/u1/notes/n1"), field: "sketch"))
        #expect(refused?.description.hasSuffix("; add the asset's file first — nothing was written") == true)
        #expect(try store.document(at: DocumentPath("users/u1/notes/n1")) == nil)
        // Not an asset reference at all: the schema's own check says what one is.
        let malformed = #expect(throws: CairnError.self) {
            try store.put(
                .object(["text": .string("x"), "sketch": .object(["oid": .string("not-hex"), "size": .integer(1)])]),
                at: DocumentPath("users/u1/notes/n1"))
        }
        #expect(malformed?.message.contains(AssetReference.form) == true)
        // Over the field's limit, before anything is written.
        let large = try file("large.png", 100_001)
        let over = #expect(throws: CairnError.self) {
            try store.put(
                .object(["text": .string("x")]), at: DocumentPath("users/u1/notes/n1"),
                attaching: [AssetAttachment(field: "sketch", file: large.path)])
        }
        #expect(over?.message.contains("takes at most 100000 bytes") == true)
        #expect(try store.assets().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: store.folder + "/.git/lfs"))
    }

    @Test func anAppendOnlyEntryTakesTheClearingOfItsPhotoAndNoOtherChange() throws {
        let store = try home("phone").createStore("u1", schemaSet: Self.set)
        let path = try DocumentPath("users/u1/entries/e1")
        let photo = try file("photo.jpg")
        try store.put(
            .object(["at": .string("2026-11-20T08:00:00Z")]), at: path, attaching: [AssetAttachment(field: "photo", file: photo.path)])
        let changed = #expect(throws: CairnError.self) { try store.put(.object(["at": .string("2026-11-21T08:00:00Z")]), at: path) }
        #expect(changed?.cause is AppendOnlyRefusal)
        try store.removeAsset("photo", of: path)
        #expect(try store.document(at: path) == .object(["at": .string("2026-11-20T08:00:00Z"), "photo": .null]))
        let again = #expect(throws: CairnError.self) {
            try store.addAsset(file: photo.path, to: "photo", of: path)
        }
        #expect(again?.cause is AppendOnlyRefusal, "an asset is never put back in an append-only document")
    }

    @Test func anImportBringsTheAnonymousUsersSketchesAlong() throws {
        let home = home("phone")
        let anonymous = try home.createStore("anon-1", schemaSet: Self.set)
        let sketch = try file("sketch.png")
        try anonymous.put(
            .object(["text": .string("owl")]), at: DocumentPath("users/anon-1/notes/n1"),
            attaching: [AssetAttachment(field: "sketch", file: sketch.path)])
        try anonymous.checkpoint()
        let store = try home.createStore("u1", schemaSet: Self.set)
        let imported = try store.importProgress(of: anonymous)
        #expect(imported.documents.map(\.description) == ["users/u1/notes/n1"])
        let read = try store.assetFile("sketch", of: DocumentPath("users/u1/notes/n1"))
        #expect(FileManager.default.contents(atPath: read) == sketch.bytes)
        let pointer = try runProcess("/usr/bin/git", ["-C", store.folder, "show", "HEAD:.cairn/assets/users/u1/notes/n1/.sketch"])
        #expect(pointer.stdout.contains("size 2000\n"), "\(pointer.stderr)")
        let status = try runProcess("/usr/bin/git", ["-C", store.folder, "status", "--porcelain"])
        #expect(status.stdout.isEmpty, "the working tree holds the pointer the import committed")
    }

    @Test func anEncryptedStoreRefusesAssetsWithNothingWritten() throws {
        let key = StoreKey.generate()
        let home = Home(root: folder.path + "/phone", configuration: Configuration(keys: .keyring(Keyring(current: key))))
        let store = try home.createStore("u1", schemaSet: Self.set, encrypted: true)
        let sketch = try file("sketch.png")
        let refused = #expect(throws: CairnError.self) {
            try store.put(
                .object(["text": .string("x")]), at: DocumentPath("users/u1/notes/n1"),
                attaching: [AssetAttachment(field: "sketch", file: sketch.path)])
        }
        #expect(refused?.code == .refused)
        #expect(refused?.message.contains("is encrypted, and assets are not encrypted yet") == true)
        #expect(try store.document(at: DocumentPath("users/u1/notes/n1")) == nil)
        #expect(!FileManager.default.fileExists(atPath: store.folder + "/.git/lfs"))
    }
}
