import CairnMerge
import CairnServer
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Git
import Testing

@testable import CairnCore

/// Assets on three devices under random sequences of attaching a file, clearing a field,
/// editing a note's text (so that devices merge), reading an asset and syncing, checked
/// against a model of which bytes must exist where:
/// - the server holds every asset its tip names, after every step;
/// - a device holds every asset it attached that its documents still name, until the
///   server has it: an attachment is never lost before it is uploaded;
/// - after a device's sync, every asset its documents name reads back byte for byte;
/// - once all have synced, every device is on the server's tree, the server holds exactly
///   the assets its tip names (nothing left behind), and a device only assets it names.
/// Each sequence replays from its seed (``PropertySeeds``).
@Suite(.historiesVerified) struct AssetBytesFollowTheirReferencesTests {
    static let devices = ["phone", "tablet", "laptop"]
    static let notes = ["n1", "n2", "n3"]
    let options = SyncOptions(retry: .none, sleep: { _ in })

    @Test func everyStepKeepsTheBytesTheModelNeeds() throws {
        var seen: Set<String> = []
        for seed in PropertySeeds.seeds(3) {
            try run(seed: seed, seen: &seen)
        }
        #expect(
            seen.isSuperset(of: ["a merge", "an asset swept from the server", "an asset read from the server"]), "reached: \(seen.sorted())"
        )
    }

    func run(seed: UInt64, seen: inout Set<String>) throws {
        let folder = TemporaryFolder("cairn-assets-model")
        var random = SplitMix(seed: seed)
        var log: [String] = []
        func fail(_ what: String) { Issue.record(Comment(rawValue: what + " — " + PropertySeeds.replay(seed, log))) }
        _ = try Server.createRepositories(in: folder.path + "/server", uids: ["u1"], cairn: "cairn")
        let remote = try RemoteURL(folder.path + "/server/u1.git")
        let server = AssetObjects.bare(at: remote.url)
        var stores: [String: Store] = [:]
        let phone = try Home(root: folder.path + "/phone").createStore("u1", schemaSet: AssetLibraryTests.set)
        try phone.setRemote(remote)
        for note in Self.notes {
            try phone.put(.object(["text": .string(note)]), at: DocumentPath("users/u1/notes/\(note)"))
        }
        try phone.sync(options)
        stores["phone"] = phone
        for device in Self.devices.dropFirst() {
            stores[device] = try Home(root: folder.path + "/" + device).cloneStore(from: remote, uid: "u1", options: options)
        }
        var bytes: [String: Data] = [:]
        var attachedBy: [String: Set<String>] = [:]
        var files = 0

        /// The oids the documents of `store` name (its working tree).
        func named(_ store: Store) throws -> Set<String> {
            var oids: Set<String> = []
            for note in Self.notes {
                if let reference = try store.document(at: DocumentPath("users/u1/notes/\(note)"))?.field("sketch").flatMap(
                    AssetReference.init)
                {
                    oids.insert(reference.oid)
                }
            }
            return oids
        }
        /// The oids the server's tip names.
        func serverNamed() throws -> Set<String> {
            let bare = try Store.openRemoteRepository(remote)
            guard let tip = try bare.reference("refs/heads/main") else { return [] }
            return try AssetSweep.oids(in: bare, tree: bare.commit(tip).treeID)
        }
        func local(_ store: Store) -> Set<String> { AssetObjects.local(gitdir: store.repository.gitdir).oids() }
        /// Every asset `store`'s documents name reads back as written.
        func readsBack(_ device: String) throws {
            let store = stores[device]!
            for note in Self.notes {
                let path = try DocumentPath("users/u1/notes/\(note)")
                guard let reference = try store.document(at: path)?.field("sketch").flatMap(AssetReference.init) else { continue }
                let wasLocal = local(store).contains(reference.oid)
                let file = try store.assetFile("sketch", of: path)
                if FileManager.default.contents(atPath: file) != bytes[reference.oid] { fail("\(note) on \(device) reads other bytes") }
                if !wasLocal { seen.insert("an asset read from the server") }
            }
        }

        for _ in 0..<PropertySeeds.steps(30) {
            let device = Self.devices[Int.random(in: 0..<Self.devices.count, using: &random)]
            let store = stores[device]!
            let note = Self.notes[Int.random(in: 0..<Self.notes.count, using: &random)]
            let path = try DocumentPath("users/u1/notes/\(note)")
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<25:
                files += 1
                let data = Data((0..<Int.random(in: 50...3_000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
                let file = folder.path + "/file-\(files)"
                try data.write(to: URL(fileURLWithPath: file))
                let reference = try store.addAsset(file: file, to: "sketch", of: path)
                bytes[reference.oid] = data
                attachedBy[device, default: []].insert(reference.oid)
                log.append("\(device) attaches \(reference.oid.prefix(6)) to \(note)")
            case 25..<35:
                guard try store.document(at: path)?.field("sketch").flatMap(AssetReference.init) != nil else { continue }
                log.append("\(device) clears \(note)")
                try store.removeAsset("sketch", of: path)
            case 35..<50:
                log.append("\(device) edits \(note)")
                var fields: JSONObject = [:]
                if case .object(let current)? = try store.document(at: path) { fields = current }
                fields["text"] = .string("\(note) by \(device) at \(log.count)")
                try store.put(.object(fields), at: path)
            case 50..<60:
                log.append("\(device) reads \(note)")
                guard let reference = try store.document(at: path)?.field("sketch").flatMap(AssetReference.init) else { continue }
                // Deleted elsewhere and swept, and never held here: gone until the next sync clears it.
                let reachable = local(store).contains(reference.oid) || server.contains(reference.oid)
                do {
                    let file = try store.assetFile("sketch", of: path)
                    if FileManager.default.contents(atPath: file) != bytes[reference.oid] { fail("\(note) on \(device) reads other bytes") }
                    if !reachable { fail("\(note) on \(device) read an asset that is nowhere") }
                } catch {
                    if reachable { fail("\(note) on \(device) does not read: \(error)") }
                }
            default:
                log.append("\(device) syncs")
                let before = try serverNamed()
                let result = try store.sync(options)
                if case .merged = result.integration { seen.insert("a merge") }
                if !before.subtracting(try serverNamed()).isEmpty { seen.insert("an asset swept from the server") }
                try readsBack(device)
            }
            // The server holds what its tip names.
            let missing = try serverNamed().filter { !server.contains($0) }
            if !missing.isEmpty { fail("the server's tip names assets it lacks: \(missing.map { $0.prefix(6) })") }
            // No device loses an attachment before the server has it.
            for (name, device) in stores {
                let unuploaded = try named(device).intersection(attachedBy[name] ?? []).filter { !server.contains($0) }
                let lost = unuploaded.subtracting(local(device))
                if !lost.isEmpty { fail("\(name) lost its attachments \(lost.map { $0.prefix(6) })") }
            }
        }
        // Everyone online until all hold the last word.
        for _ in 0..<2 {
            for device in Self.devices {
                log.append("\(device) syncs at the end")
                try stores[device]!.sync(options)
            }
        }
        let tip = try Store.openRemoteRepository(remote).reference("refs/heads/main")
        let tipNamed = try serverNamed()
        if server.oids() != tipNamed { fail("the server holds \(server.oids().count) assets, its tip names \(tipNamed.count)") }
        for device in Self.devices {
            let store = stores[device]!
            if try store.repository.headCommit()?.id != tip { fail("\(device) is not on the server's commit") }
            if !local(store).isSubset(of: tipNamed) {
                fail("\(device) keeps assets nothing names: \(local(store).subtracting(tipNamed).map { $0.prefix(6) })")
            }
            try readsBack(device)
        }
    }
}
