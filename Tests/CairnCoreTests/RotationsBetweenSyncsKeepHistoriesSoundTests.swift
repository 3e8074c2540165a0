import CairnCore
import CairnMerge
import CairnServer
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// An encrypted store on three devices under random sequences of writes, syncs, key
/// rotations and devices learning the newest keyring at their own pace (an app's keychain
/// syncing late): every device that holds every key syncs, and every history stays sound —
/// each device's after each of its syncs, every one's and the server's at the end — with the
/// counters of the model (no watering lost whatever key sealed it), and a device given the
/// first key alone judges what it opens and names the rest. Each sequence replays from its
/// seed (``PropertySeeds``).
@Suite(.historiesVerified) struct RotationsBetweenSyncsKeepHistoriesSoundTests {
    static let set = EncryptedStoreLibraryTests.set
    static let devices = ["phone", "tablet", "laptop"]
    static let plots = ["p1", "p2", "p3"]
    let options = SyncOptions(retry: .none, sleep: { _ in })

    @Test func everyHistoryStaysSoundAndNoWriteIsLost() throws {
        var rotations = 0
        for seed in PropertySeeds.seeds(3) {
            rotations += try run(seed: seed)
        }
        #expect(rotations >= 3, "the sequences rotated \(rotations) times")
    }

    /// One sequence; how many rotations it made.
    func run(seed: UInt64) throws -> Int {
        let folder = TemporaryFolder("cairn-rotations")
        var random = SplitMix(seed: seed)
        var log: [String] = []
        func fail(_ what: String) { Issue.record(Comment(rawValue: what + " — " + PropertySeeds.replay(seed, log))) }
        _ = try Server.createRepositories(in: folder.path + "/server", uids: ["u1"], cairn: "cairn")
        let remote = try RemoteURL(folder.path + "/server/u1.git")
        let first = Keyring(current: StoreKey.generate())
        var newest = first
        var known = Dictionary(uniqueKeysWithValues: Self.devices.map { ($0, first) })
        func open(_ device: String) throws -> Store {
            try Home(root: folder.path + "/" + device, configuration: Configuration(keys: .keyring(known[device]!))).openStore("u1")
        }
        // Every plot made on the phone and pushed; the others restore it.
        let phone = try Home(root: folder.path + "/phone", configuration: Configuration(keys: .keyring(first)))
            .createStore("u1", schemaSet: Self.set, encrypted: true)
        try phone.setRemote(remote)
        var waterings: [String: Int64] = [:]
        for plot in Self.plots {
            try phone.put(
                .object(["crop": .string("crop \(plot)"), "height": .integer(1), "waterings": .integer(0)]),
                at: DocumentPath("users/u1/plots/\(plot)"))
            waterings[plot] = 0
        }
        try phone.sync(options)
        for device in Self.devices.dropFirst() {
            _ = try Home(root: folder.path + "/" + device, configuration: Configuration(keys: .keyring(first)))
                .cloneStore(from: remote, uid: "u1", options: options)
        }
        var rotations = 0
        for _ in 0..<PropertySeeds.steps(25) {
            let device = Self.devices[Int.random(in: 0..<Self.devices.count, using: &random)]
            let holdsAll = known[device]! == newest
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<45:
                // A watering, counted on whichever device it happened.
                let plot = Self.plots[Int.random(in: 0..<Self.plots.count, using: &random)]
                let more = Int64.random(in: 1...3, using: &random)
                log.append("\(device) waters \(plot) +\(more)")
                let store = try open(device)
                let path = try DocumentPath("users/u1/plots/\(plot)")
                guard case .integer(let count)? = try store.document(at: path)?.field("waterings") else {
                    fail("\(plot) has no count on \(device)")
                    return rotations
                }
                try store.put(
                    .object(["crop": .string("crop \(plot)"), "height": .integer(1), "waterings": .integer(count + more)]), at: path)
                waterings[plot]! += more
            case 45..<75:
                log.append("\(device) syncs\(holdsAll ? "" : " (an older keyring)")")
                do {
                    let store = try open(device)
                    try store.sync(options)
                    let audit = try store.verify()
                    if !audit.isSound || !audit.gaps.isEmpty {
                        fail("\(device) after its sync: \(audit.findings) \(audit.gaps)")
                        return rotations
                    }
                } catch let error as CairnError {
                    // Only a device that lacks a key may fail, and only for that key.
                    if holdsAll || error.missingStoreKey == nil && !error.message.contains("which is not among the keys given") {
                        fail("the sync of \(device) failed: \(error)")
                        return rotations
                    }
                }
            case 75..<85:
                guard holdsAll else { continue }
                rotations += 1
                log.append("\(device) rotates")
                let store = try open(device)
                newest = newest.rotated(to: StoreKey.generate())
                try store.rotateKey(to: newest)
                known[device] = newest
            default:
                log.append("\(device) learns the newest keyring")
                known[device] = newest
            }
        }
        // Every device learns every key and syncs until all hold all.
        for device in Self.devices { known[device] = newest }
        for _ in 0..<2 {
            for device in Self.devices {
                log.append("\(device) syncs at the end")
                try open(device).sync(options)
            }
        }
        let trees = try Self.devices.map { try open($0).verify("HEAD") }
        for (device, audit) in zip(Self.devices, trees) where !audit.isSound || !audit.gaps.isEmpty {
            fail("\(device) at the end: \(audit.findings) \(audit.gaps)")
        }
        let server = try Store.verifyRepository(at: remote.url)
        if !server.isSound { fail("the server: \(server.findings)") }
        for device in Self.devices {
            let store = try open(device)
            for plot in Self.plots {
                let count = try store.document(at: DocumentPath("users/u1/plots/\(plot)"))?.field("waterings")
                if count != .integer(waterings[plot]!) {
                    fail("\(plot) on \(device) counts \(String(describing: count)), the model \(waterings[plot]!)")
                }
            }
        }
        // The first key alone: what it opens is judged, and every rotation after it is named.
        let partial = try Store.verifyStore(at: folder.path + "/phone/u1", configuration: Configuration(keys: .keyring(first)))
        if !partial.isSound { fail("the first key alone: \(partial.findings)") }
        if rotations > 0, partial.gaps.isEmpty { fail("the first key alone judged commits sealed with later keys") }
        return rotations
    }
}
