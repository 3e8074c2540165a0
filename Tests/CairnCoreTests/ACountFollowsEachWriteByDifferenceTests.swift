import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Git
import Testing

@testable import CairnCore

/// A garden app nobody here wrote: a garden counts its beds, its plants in every bed, and
/// the ripe ones. A put or a delete below the garden moves its counts by difference, reading
/// the garden alone however many plants it counts; the counts must stay what counting every
/// plant gives, through a long run of writes of every sort.
@Suite(.historiesVerified) struct ACountFollowsEachWriteByDifferenceTests {
    let folder = TemporaryFolder()
    var home: Home { Home(root: folder.path + "/home") }
    let garden = try! DocumentPath("users/u1/gardens/g1")

    static let gardenSchema = #"""
        {"x-cairn": {"path": "users/{uid}/gardens/{gardenId}"}, "type": "object",
         "properties": {
           "name": {"type": "string"},
           "beds": {"type": "integer", "x-merge": {"derive": {"countDocuments": "beds"}}},
           "plants": {"type": "integer", "x-merge": {"derive": {"countDocuments": "beds/*/plants"}}},
           "ripe": {"type": "integer", "x-merge": {"derive": {"countDocuments": "beds/*/plants", "where": {"ripe": true}}}},
           "ripeShare": {"type": "number", "x-merge": {"derive": {"ratio": ["ripe", "plants"], "scale": 100}}}}}
        """#
    static let bedSchema = #"{"x-cairn": {"path": "users/{uid}/gardens/{gardenId}/beds/{bedId}"}, "type": "object"}"#
    static let plantSchema = #"{"x-cairn": {"path": "users/{uid}/gardens/{gardenId}/beds/{bedId}/plants/{plantId}"}, "type": "object"}"#

    func makeStore() throws -> Store {
        let files = ["garden.schema.json": Self.gardenSchema, "bed.schema.json": Self.bedSchema, "plant.schema.json": Self.plantSchema]
        let store = try home.createStore("u1", schemaSet: SchemaSetFiles(name: "garden", files: files.mapValues { Array($0.utf8) }))
        try store.put(json("{\"name\": \"Back\", \"beds\": 7, \"plants\": 7, \"ripe\": 7}"), at: garden)
        return store
    }

    func json(_ text: String) throws -> JSONValue { try JSONParser().parse(Array(text.utf8)) }

    func plant(_ bed: Int, _ plant: Int) -> DocumentPath {
        try! DocumentPath("users/u1/gardens/g1/beds/b\(bed)/plants/p\(plant)")
    }

    func counts(_ store: Store) throws -> [String: JSONValue] {
        let document = try store.document(at: garden)
        var found: [String: JSONValue] = [:]
        for name in ["beds", "plants", "ripe"] { found[name] = document?.field(name) }
        return found
    }

    @Test func aLongRunOfWritesKeepsEveryCountWhatCountingGives() throws {
        let store = try makeStore()
        // The app's own figures in the garden are not counts: the store's are.
        #expect(try counts(store) == ["beds": .integer(0), "plants": .integer(0), "ripe": .integer(0)])
        var random = SplitMix(seed: 19)
        // The test's own record of what is stored: plants by bed, ripe or not; beds with a document.
        var plants: [Int: [Int: Bool]] = [:]
        var beds = Set<Int>()
        for step in 0..<400 {
            let bed = Int(random.next() % 4)
            let id = Int(random.next() % 6)
            switch random.next() % 10 {
            case 0...4:
                // A new plant or one changed, ripe or not; sometimes in a bed with no document.
                let ripe = random.next() % 2 == 0
                try store.put(json("{\"ripe\": \(ripe), \"step\": \(step)}"), at: plant(bed, id))
                plants[bed, default: [:]][id] = ripe
            case 5:
                // A plant that no longer says whether it is ripe.
                try store.put(json("{\"step\": \(step)}"), at: plant(bed, id))
                plants[bed, default: [:]][id] = false
            case 6:
                if plants[bed]?[id] != nil {
                    try store.delete(plant(bed, id))
                    plants[bed]?[id] = nil
                }
            case 7:
                try store.put(json("{\"row\": \(step)}"), at: try DocumentPath("users/u1/gardens/g1/beds/b\(bed)"))
                beds.insert(bed)
            case 8:
                // The bed and every plant in it.
                if beds.contains(bed) || !(plants[bed] ?? [:]).isEmpty {
                    try store.delete(try DocumentPath("users/u1/gardens/g1/beds/b\(bed)"), recursive: true)
                    beds.remove(bed)
                    plants[bed] = nil
                }
            default:
                // The garden itself, with figures of the app's own.
                try store.put(json("{\"name\": \"Back \(step)\", \"plants\": 99, \"ripe\": -1}"), at: garden)
            }
            let all = plants.values.flatMap(\.values)
            let expected: [String: JSONValue] = [
                "beds": .integer(Int64(beds.count)), "plants": .integer(Int64(all.count)),
                "ripe": .integer(Int64(all.filter { $0 }.count)),
            ]
            let found = try counts(store)
            #expect(found == expected, "step \(step)")
            if found != expected { return }
        }
        // Counting every document from the files agrees, and so does the tree a checkpoint commits.
        #expect(try store.validate().isEmpty)
        try store.checkpoint()
        let tree = try #require(try store.repository.headCommit()).treeID
        let corrections = try TreeDerivations(repository: store.repository, schemaSet: store.schemaSet(), codec: .plain)
            .corrections(in: tree, after: [plant(0, 0), plant(1, 0), plant(2, 0), plant(3, 0)])
        #expect(corrections.isEmpty, "\(corrections.map { $0.mismatches })")
    }

    /// A count another tool wrote as no whole number cannot be moved by difference: the
    /// next write below counts every document instead.
    @Test func aCountThatIsNoNumberIsCountedInFull() throws {
        let store = try makeStore()
        for id in 0..<3 { try store.put(json("{\"ripe\": true}"), at: plant(0, id)) }
        var fields = try store.document(at: garden)?.objectValue ?? [:]
        fields["plants"] = .string("three")
        fields["ripe"] = .integer(-2)
        try FileSystem.writeAtomically(JSONValue.object(fields).canonicalBytes(), to: store.folder + "/" + garden.fileName)
        try store.put(json("{\"ripe\": false}"), at: plant(1, 0))
        #expect(try counts(store) == ["beds": .integer(0), "plants": .integer(4), "ripe": .integer(3)])
        #expect(try store.document(at: garden)?.field("ripeShare") == .double(75))
    }

    /// A whole number written by hand is trusted by the writes that follow, as a database
    /// trusts its counter; the checkpoint's scan, which looks for hand edits, counts in full
    /// and says what it corrected.
    @Test func aCountEditedByHandIsCorrectedByTheScan() throws {
        let store = try makeStore()
        try store.put(json("{\"ripe\": true}"), at: plant(0, 0))
        try store.checkpoint()
        var fields = try store.document(at: garden)?.objectValue ?? [:]
        fields["plants"] = .integer(40)
        try FileSystem.writeAtomically(JSONValue.object(fields).canonicalBytes(), to: store.folder + "/" + garden.fileName)
        try store.put(json("{\"ripe\": true}"), at: plant(0, 1))
        #expect(try counts(store)["plants"] == .integer(41))
        let result = try store.checkpoint(scan: true)
        #expect(result.corrections.map(\.field) == ["plants", "ripeShare"], "\(result.corrections)")
        #expect(try counts(store)["plants"] == .integer(2))
    }

    /// A store with one ripe plant counted, and a second plant written and recorded as
    /// pending but not counted — what a writer killed or failed between the two files left —
    /// with the lock's file saying `lock`.
    func storeWithAPlantItsGardenDoesNotCount(ripe: Bool, lock: String) throws -> Store {
        let store = try makeStore()
        try store.put(json("{\"ripe\": true}"), at: plant(0, 0))
        let orphan = plant(2, 5)
        try FileSystem.makeFolders(store.folder + "/" + orphan.collection.description)
        try FileSystem.writeAtomically(Array("{\"ripe\":\(ripe)}".utf8), to: store.folder + "/" + orphan.fileName)
        try store.journal.append([orphan.fileName])
        try FileSystem.writeAtomically(Array((lock + "\n").utf8), to: store.repository.gitdir + "/" + StoreLayout.lockFile)
        return store
    }

    /// A writer killed after a plant's file and before the garden's leaves the lock `busy`
    /// (it notes itself before such a write): the next holder counts the pending documents'
    /// owners in full, whatever it came to do.
    @Test func aWriteKilledBeforeItsOwnersCountIsRepairedByTheNextHolder() throws {
        // What the killed writer did: the plant's file, its journal entry, the lock noted busy.
        let store = try storeWithAPlantItsGardenDoesNotCount(ripe: true, lock: "busy 999999 \(Int(Date().timeIntervalSince1970))")
        #expect(try counts(store)["plants"] == .integer(1))

        // Another store value, as another process would open it, and a write elsewhere.
        let next = try home.openStore("u1")
        try next.put(json("{\"note\": 1}"), at: try DocumentPath("users/u1/gardens/g2"))
        #expect(try counts(next) == ["beds": .integer(0), "plants": .integer(2), "ripe": .integer(2)])
        #expect(try next.validate().isEmpty)
        // Repaired once: the lock no longer asks the next holder to count again.
        let state = try FileSystem.read(store.repository.gitdir + "/" + StoreLayout.lockFile).map { String(decoding: $0, as: UTF8.self) }
        #expect(state?.hasPrefix("idle") == true, "\(state ?? "-")")
    }

    /// A holder that finds the lock `recount` (a write that failed half way) but fails before
    /// it repairs passes the sign on: a later holder still counts again.
    @Test func theSignThatCountsNeedRepairOutlivesAHolderThatFails() throws {
        let store = try storeWithAPlantItsGardenDoesNotCount(ripe: false, lock: "recount")
        // A broken schema set makes the next holder (a checkpoint, which notes itself busy)
        // fail before it counts.
        let schema = store.folder + "/.cairn/schema/garden.schema.json"
        let saved = try #require(try FileSystem.read(schema))
        try FileSystem.writeAtomically(Array("{ broken".utf8), to: schema)
        let failing = try home.openStore("u1")
        #expect(throws: CairnError.self) { try failing.checkpoint() }
        try FileSystem.writeAtomically(saved, to: schema)
        let next = try home.openStore("u1")
        try next.put(json("{\"note\": 1}"), at: try DocumentPath("users/u1/gardens/g3"))
        #expect(try counts(next)["plants"] == .integer(2))
        let state = try FileSystem.read(store.repository.gitdir + "/" + StoreLayout.lockFile).map { String(decoding: $0, as: UTF8.self) }
        #expect(state?.hasPrefix("idle") == true, "\(state ?? "-")")
    }

    /// A put of the garden itself counts under the lock: a plant written after the garden was
    /// prepared (by another process, between the two) is in its counts.
    @Test func aPutOfTheCountingDocumentCountsUnderTheLock() throws {
        let store = try makeStore()
        try store.put(json("{\"ripe\": true}"), at: plant(0, 0))
        let (filled, bytes) = try store.prepared(json("{\"name\": \"Front\"}"), at: garden)
        let other = try home.openStore("u1")
        try other.put(json("{\"ripe\": true}"), at: plant(1, 0))
        try store.locked("test", documentsOnly: true) { () throws -> Void in
            try store.write(filled, stored: bytes, at: garden)
        }
        #expect(try counts(store) == ["beds": .integer(0), "plants": .integer(2), "ripe": .integer(2)])
    }
}
