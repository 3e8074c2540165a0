import CairnCore
import CairnMerge
import CairnServer
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// An app's encrypted store through the library: the app gives its keyring (from Keychain or
/// KeyStore) in the configuration, and the store reads, writes, merges and rotates with it —
/// a set of its own, not one of the shipped ones.
@Suite(.historiesVerified) struct EncryptedStoreLibraryTests {
    let folder = TemporaryFolder()
    let key = StoreKey.generate()
    let options = SyncOptions(retry: .none, sleep: { _ in })
    static let set = SchemaSetFiles(
        name: "garden",
        files: [
            "plot.schema.json": Array(
                #"{"x-cairn":{"path":"users/{uid}/plots/{id}"},"type":"object","required":["crop"],"properties":{"crop":{"type":"string"},"height":{"type":"integer","x-merge":"max"},"waterings":{"type":"integer","x-merge":"counter"}}}"#
                    .utf8),
            "harvest.schema.json": Array(
                #"{"x-cairn":{"path":"users/{uid}/harvests/{id}"},"x-merge":"append-only","type":"object","properties":{"kg":{"type":"number"}}}"#
                    .utf8),
        ])

    func home(_ name: String, _ keyring: Keyring?) -> Home {
        Home(root: folder.path + "/" + name, configuration: Configuration(keys: keyring.map { .keyring($0) }))
    }

    func plot(_ crop: String, height: Int64, waterings: Int64) -> JSONValue {
        .object(["crop": .string(crop), "height": .integer(height), "waterings": .integer(waterings)])
    }

    @Test func theAppsKeyringOpensTheStoreAndNoOtherDoes() throws {
        let store = try home("phone", Keyring(current: key)).createStore("u1", schemaSet: Self.set, encrypted: true)
        #expect(store.isEncrypted)
        let path = try DocumentPath("users/u1/plots/p1")
        try store.put(plot("Romanesco-Vesuvius", height: 3, waterings: 1), at: path)
        try store.checkpoint()
        let file = try Data(contentsOf: URL(fileURLWithPath: store.folder + "/users/u1/plots/p1.json"))
        #expect(DocumentCipher.isSealed([UInt8](file)))
        #expect(file.range(of: Data("Romanesco".utf8)) == nil)
        #expect(try store.document(at: path) == plot("Romanesco-Vesuvius", height: 3, waterings: 1))

        let wrong = #expect(throws: CairnError.self) { try home("phone", Keyring(current: StoreKey.generate())).openStore("u1") }
        #expect(wrong?.code == .authentication)
        #expect(wrong?.message.contains("encrypted with key \(key.id), which is not among the keys given") == true)
        #expect(wrong?.remedy == .giveStoreKey(keyID: key.id.description))
        let none = #expect(throws: CairnError.self) { try home("phone", nil).openStore("u1") }
        #expect(none?.message == "the store of user u1 is encrypted and no key was given")
        let keyless = #expect(throws: CairnError.self) { try home("bare", nil).createStore("u1", schemaSet: Self.set, encrypted: true) }
        #expect(keyless?.message.contains("needs a key") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/bare/u1"))
    }

    @Test func mergesDecryptMergeUnderThePoliciesAndSealTheirRecords() throws {
        _ = try Server.createRepositories(in: folder.path + "/server", uids: ["u1"], cairn: "cairn")
        let remote = try RemoteURL(folder.path + "/server/u1.git")
        let keyring = Keyring(current: key)
        let phone = try home("phone", keyring).createStore("u1", schemaSet: Self.set, encrypted: true)
        try phone.setRemote(remote)
        let path = try DocumentPath("users/u1/plots/p1")
        try phone.put(plot("kale", height: 3, waterings: 1), at: path)
        try phone.sync(options)
        let laptop = try home("laptop", keyring).cloneStore(from: remote, uid: "u1", options: options)
        #expect(laptop.isEncrypted)
        try phone.put(plot("kale", height: 9, waterings: 2), at: path)
        try laptop.put(plot("kale", height: 5, waterings: 3), at: path)
        try laptop.sync(options)
        let merged = try phone.sync(options)
        try laptop.sync(options)
        #expect(try phone.document(at: path) == plot("kale", height: 9, waterings: 4))
        let trees = try [phone.folder, laptop.folder].map { try git("rev-parse", "HEAD^{tree}", in: $0).stdout }
        #expect(trees[0] == trees[1] && trees[0].count == 41)
        // The decision is recorded sealed, and read back whole where the key is.
        let records = try phone.conflicts().flatMap(\.records)
        #expect(records.contains { $0.pointer == "/height" && $0.kept == .integer(9) && $0.replaced == .integer(5) }, "\(records)")
        let message = try phone.checkpoint("HEAD").message
        #expect(message.contains("Cairn-Conflict-Sealed: ") && !message.contains("Cairn-Conflict: "), "\(message)")
        #expect(!message.contains("kept 9"))
        #expect(merged.conflicts.count == records.count)
    }

    @Test func aRotationKeepsHistoryAndAppendOnlyBlobsAndNeedsTheOldKeyKept() throws {
        let keyring = Keyring(current: key)
        let store = try home("phone", keyring).createStore("u1", schemaSet: Self.set, encrypted: true)
        let plotPath = try DocumentPath("users/u1/plots/p1")
        let harvestPath = try DocumentPath("users/u1/harvests/h1")
        try store.put(plot("leek", height: 2, waterings: 1), at: plotPath)
        try store.put(.object(["kg": .double(1.5)]), at: harvestPath)
        try store.checkpoint()
        let harvestBlob = try Data(contentsOf: URL(fileURLWithPath: store.folder + "/" + harvestPath.fileName))

        let lacking = #expect(throws: CairnError.self) { try store.rotateKey(to: Keyring(current: StoreKey.generate())) }
        #expect(lacking?.message.contains("the new keyring lacks key \(key.id)") == true)
        let same = #expect(throws: CairnError.self) { try store.rotateKey(to: keyring) }
        #expect(same?.message.contains("seals the store of user u1 already") == true)

        let next = StoreKey.generate()
        let rotated = keyring.rotated(to: next)
        let result = try store.rotateKey(to: rotated)
        #expect(result.changes.map(\.path) == [plotPath.fileName])
        let plotFile = try Data(contentsOf: URL(fileURLWithPath: store.folder + "/" + plotPath.fileName))
        #expect(DocumentCipher.keyID(of: [UInt8](plotFile)) == next.id)
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.folder + "/" + harvestPath.fileName)) == harvestBlob)
        #expect(try store.checkpoint("HEAD").message.contains("Cairn-Key-Rotation: \(key.id) -> \(next.id)"))
        // Reopened with the rotated keyring: today's documents and yesterday's history read.
        let reopened = try home("phone", rotated).openStore("u1")
        #expect(try reopened.document(at: plotPath) == plot("leek", height: 2, waterings: 1))
        #expect(try reopened.document(at: plotPath, revision: "HEAD~1") == plot("leek", height: 2, waterings: 1))
        // New writes are sealed with the new key.
        try reopened.put(plot("leek", height: 4, waterings: 1), at: plotPath)
        let written = try Data(contentsOf: URL(fileURLWithPath: store.folder + "/" + plotPath.fileName))
        #expect(DocumentCipher.keyID(of: [UInt8](written)) == next.id)
    }

    @Test func aDocumentWrittenInTheClearByHandIsSealedByTheScan() throws {
        let store = try home("phone", Keyring(current: key)).createStore("u1", schemaSet: Self.set, encrypted: true)
        try FileManager.default.createDirectory(atPath: store.folder + "/users/u1/plots", withIntermediateDirectories: true)
        try #"{"crop":"Chard-Aurora","height":1}"#.write(
            toFile: store.folder + "/users/u1/plots/p2.json", atomically: true, encoding: .utf8)
        try store.checkpoint(scan: true)
        let file = try Data(contentsOf: URL(fileURLWithPath: store.folder + "/users/u1/plots/p2.json"))
        #expect(DocumentCipher.isSealed([UInt8](file)) && file.range(of: Data("Chard".utf8)) == nil)
        #expect(
            try store.document(at: DocumentPath("users/u1/plots/p2")) == .object(["crop": .string("Chard-Aurora"), "height": .integer(1)]))
        // A sealed file altered by hand stops the scan, with nothing committed.
        var altered = [UInt8](file)
        altered[altered.count - 1] ^= 1
        try Data(altered).write(to: URL(fileURLWithPath: store.folder + "/users/u1/plots/p2.json"))
        let head = try store.checkpoint("HEAD").id
        let refused = #expect(throws: CairnError.self) { try store.checkpoint(scan: true) }
        #expect(refused?.message.contains("fails authentication") == true && refused?.message.contains("nothing was committed") == true)
        #expect(try store.checkpoint("HEAD").id == head)
    }
}
