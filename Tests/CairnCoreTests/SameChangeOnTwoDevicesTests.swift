import CairnCore
import CairnMerge
import CairnServer
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Two devices make the same change to the same checkpoint in the same second. Without
/// something of the device in the commit, both would make the very same commit — one commit,
/// so a count both raised would rise once. Each copy of a store has its own ID, recorded in its
/// checkpoints, so the commits differ and the merge counts both increments.
@Suite(.historiesVerified) struct SameChangeOnTwoDevicesTests {
    @Test func theSameIncrementInTheSameSecondCountsTwice() throws {
        let folder = TemporaryFolder()
        let schema =
            #"{"x-cairn":{"path":"users/{uid}/counts/{id}"},"type":"object","properties":{"n":{"type":"integer","x-merge":"counter"}}}"#
        let set = SchemaSetFiles(name: "counts", files: ["count.schema.json": Array(schema.utf8)])
        _ = try Server.createRepositories(in: folder.path + "/server", uids: ["u1"], cairn: "cairn")
        let remote = try RemoteURL(folder.path + "/server/u1.git")
        let options = SyncOptions(retry: .none, sleep: { _ in })
        let phone = try Home(root: folder.path + "/phone").createStore("u1", schemaSet: set)
        try phone.setRemote(remote)
        let path = try DocumentPath("users/u1/counts/c1")
        try phone.put(.object(["n": .integer(5)]), at: path)
        try phone.sync(options)
        let laptop = try Home(root: folder.path + "/laptop").cloneStore(from: remote, uid: "u1", options: options)
        // The same second on both devices.
        let now: Int64 = 1_795_000_000_000
        phone.clock = { now }
        laptop.clock = { now }
        for store in [phone, laptop] {
            try store.put(.object(["n": .integer(6)]), at: path)
            try store.checkpoint()
        }
        let phoneHead = try phone.checkpoint("HEAD")
        let laptopHead = try laptop.checkpoint("HEAD")
        #expect(phoneHead.id != laptopHead.id)
        #expect(phoneHead.message.contains("Cairn-Device: "))
        try phone.sync(options)
        try laptop.sync(options)
        try phone.sync(options)
        #expect(try phone.document(at: path) == .object(["n": .integer(7)]))
        #expect(try laptop.document(at: path) == .object(["n": .integer(7)]))
    }
}
