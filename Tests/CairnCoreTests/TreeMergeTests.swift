import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Git
import GitFormat
import Testing

@testable import CairnCore

/// The store's tree merge, which reads only what differs, against the merge of whole stores
/// (`SchemaSet.mergeDocuments`): the same documents and the same records, the same tree id
/// whichever side merges, and criss-cross histories merged over a virtual base.
@Suite(.historiesVerified) struct TreeMergeTests {
    let folder = TemporaryFolder("cairn-tree-merge")
    let repository: Repository

    init() throws {
        repository = try Repository.create(at: folder.path + "/repo", initialBranch: "main")
    }

    static func schemaSet(_ name: String) throws -> SchemaSet {
        try SchemaSet(files: shippedSchemaSet(name).files)
    }

    /// A tree holding exactly `documents`.
    func tree(_ documents: [DocumentPath: JSONValue]) throws -> ObjectID {
        let updates = try documents.map { (path, value) in
            TreeUpdate.upsert(path: path.fileName, id: try repository.writeBlob(value.canonicalBytes()), mode: 0o100644)
        }
        return try repository.updateTree(ObjectID.emptyTree, with: updates).id
    }

    /// The documents a tree holds.
    func documents(_ tree: ObjectID) throws -> [DocumentPath: JSONValue] {
        var found: [DocumentPath: JSONValue] = [:]
        for file in try repository.differences(among: [tree, nil]) {
            found[try #require(DocumentPath(fileName: file.path))] = try JSONParser().parse(repository.blobContent(file.entries[0]!.id))
        }
        return found
    }

    /// Random life-in-uk stores: a base and two devices' edits of it.
    static func randomStores(_ random: inout SplitMix) -> [[DocumentPath: JSONValue]] {
        func attempt(_ id: String) -> JSONValue {
            .object([
                "attemptId": .string(id), "examId": .string("practice-1"), "status": .string("passed"),
                "score": .integer(Int64.random(in: 0...100, using: &random)),
            ])
        }
        func book(_ id: String, _ sections: Int) -> JSONValue {
            var entries: JSONObject = [:]
            for index in 0..<sections where Bool.random(using: &random) {
                entries["s\(index)"] = .object([
                    "completed": .bool(Bool.random(using: &random)),
                    "updatedAt": .integer(Int64.random(in: 1...50, using: &random)),
                ])
            }
            return .object([
                "schemaVersion": .integer(1), "bookId": .string(id), "sections": .object(entries),
                "updatedAt": .integer(Int64.random(in: 1...50, using: &random)),
            ])
        }
        func summary() -> JSONValue {
            .object([
                "schemaVersion": .integer(1),
                "favorites": .object(["Q\(Int.random(in: 1...4, using: &random))": .bool(true)]),
                "examSummaries": .object([
                    "practice-1": .object([
                        "attemptCount": .integer(Int64.random(in: 0...9, using: &random)),
                        "bestScore": .integer(Int64.random(in: 0...100, using: &random)),
                        "lastCompletedAt": .string("2025-12-0\(Int.random(in: 1...9, using: &random))T10:00:00Z"),
                    ])
                ]),
            ])
        }
        func edit(_ store: [DocumentPath: JSONValue], _ device: String) -> [DocumentPath: JSONValue] {
            var store = store
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                switch Int.random(in: 0...4, using: &random) {
                case 0: store[try! DocumentPath("users/u1/examAttempts/\(device)\(Int.random(in: 0...3, using: &random))")] = attempt("x")
                case 1: store[try! DocumentPath("users/u1/books/b\(Int.random(in: 0...2, using: &random))")] = book("b", 5)
                case 2: store[try! DocumentPath("users/u1/progress/exam")] = summary()
                case 3: store[try! DocumentPath("users/u1/examInProgress/p\(Int.random(in: 0...1, using: &random))")] = nil
                default:
                    store[try! DocumentPath("users/u1/examInProgress/p\(Int.random(in: 0...1, using: &random))")] =
                        .object(["examId": .string("p"), "clientUpdatedAt": .integer(Int64.random(in: 1...9, using: &random))])
                }
            }
            return store
        }
        var base: [DocumentPath: JSONValue] = [:]
        for index in 0..<3 { base[try! DocumentPath("users/u1/examAttempts/a\(index)")] = attempt("a\(index)") }
        for index in 0..<2 { base[try! DocumentPath("users/u1/books/b\(index)")] = book("b\(index)", 5) }
        base[try! DocumentPath("users/u1/progress/exam")] = summary()
        return [base, edit(base, "p"), edit(base, "t")]
    }

    @Test func readingOnlyWhatDiffersGivesTheWholeStoreMerge() throws {
        let set = try Self.schemaSet("life-in-uk")
        let merge = StoreMerge(repository: repository, schemaSet: set, codec: .plain)
        var random = SplitMix(seed: 4)
        for round in 0..<150 {
            // Stored documents carry their derived fields, as put writes them.
            let stores = Self.randomStores(&random).map { store in
                Dictionary(uniqueKeysWithValues: store.map { ($0.key, set.filled($0.value, at: $0.key)) })
            }
            let (base, ours, theirs) = (try tree(stores[0]), try tree(stores[1]), try tree(stores[2]))
            let expected = set.mergeDocuments(base: stores[0], ours: stores[1], theirs: stores[2])
            let outcome = try merge.merge(base: base, ours: ours, theirs: theirs)
            let reversed = try merge.merge(base: base, ours: theirs, theirs: ours)
            #expect(outcome.tree == reversed.tree, "round \(round): the tree depends on the side")
            #expect(outcome.conflicts == reversed.conflicts, "round \(round)")
            let found = try documents(outcome.tree)
            let differing = Set(found.keys).union(expected.documents.keys).filter {
                found[$0]?.canonicalBytes() != expected.documents[$0]?.canonicalBytes()
            }
            #expect(
                differing.isEmpty,
                "round \(round): not the whole-store merge at \(differing.sorted().map { "\($0): \(found[$0]?.canonicalText ?? "-") vs \(expected.documents[$0]?.canonicalText ?? "-")" })"
            )
            #expect(outcome.conflicts == expected.conflicts, "round \(round): other conflict records")
        }
    }

    @Test func countsOfDocumentsAreComputedAgainFromTheMergedTree() throws {
        let set = try Self.schemaSet("remi")
        let user = try DocumentPath("users/u1")
        let base: [DocumentPath: JSONValue] = [user: .object(["profileCount": .integer(0), "taskCount": .integer(0)])]
        var phone = base
        phone[try DocumentPath("users/u1/profiles/+447700900123")] = .object(["phoneNumber": .string("+447700900123")])
        phone[user] = .object(["profileCount": .integer(1), "taskCount": .integer(0)])
        var tablet = base
        tablet[try DocumentPath("users/u1/profiles/+447700900456")] = .object(["phoneNumber": .string("+447700900456")])
        tablet[try DocumentPath("users/u1/profiles/+447700900456/habits/h1")] = .object(["title": .string("Walk")])
        tablet[user] = .object(["profileCount": .integer(1), "taskCount": .integer(1)])
        let outcome = try StoreMerge(repository: repository, schemaSet: set, codec: .plain)
            .merge(base: tree(base), ours: tree(phone), theirs: tree(tablet))
        let merged = try documents(outcome.tree)
        #expect(merged[user]?.field("profileCount") == .integer(2))
        #expect(merged[user]?.field("taskCount") == .integer(1))
        #expect(merged == set.mergeDocuments(base: base, ours: phone, theirs: tablet).documents)
    }

    /// A profile another git tool wrote unparsable, arriving while a count of profiles is
    /// computed again: the merge stops as corrupt, naming it, rather than count without it.
    @Test func anUnreadableCountedDocumentMakesTheMergeFailAsCorrupt() throws {
        let set = try Self.schemaSet("remi")
        let user = try DocumentPath("users/u1")
        let base: [DocumentPath: JSONValue] = [user: .object(["profileCount": .integer(0), "taskCount": .integer(0)])]
        var phone = base
        phone[try DocumentPath("users/u1/profiles/+447700900123")] = .object(["phoneNumber": .string("+447700900123")])
        let broken = try repository.writeBlob(Array(#"{"phoneNumber": "+447700900456""#.utf8))
        let tablet = try repository.updateTree(
            tree(base), with: [.upsert(path: "users/u1/profiles/+447700900456.json", id: broken, mode: 0o100644)]
        ).id
        let merge = StoreMerge(repository: repository, schemaSet: set, codec: .plain)
        for (ours, theirs) in [(try tree(phone), tablet), (tablet, try tree(phone))] {
            let error = try #require(throws: CairnError.self) { try merge.merge(base: tree(base), ours: ours, theirs: theirs) }
            #expect(error.code == .corrupt)
            #expect(error.message.hasPrefix("users/u1/profiles/+447700900456 in history is not a valid document"), "\(error.message)")
        }
    }

    /// A Git LFS pointer left below a document whose kind declares no asset field (by hand,
    /// or by a set that dropped the field) goes when a merge touches the document, though
    /// the merge reads only documents of kinds that declare asset fields.
    @Test func aPointerLeftBelowADocumentWithoutAssetFieldsGoesInAMerge() throws {
        let set = try SchemaSet(files: [
            "entry.schema.json": Array(
                #"{"x-cairn":{"path":"users/{uid}/entries/{id}","assets":{"photo":{}}},"x-merge":"append-only","type":"object","properties":{"at":{"type":"string"},"photo":{"type":["object","null"]}}}"#
                    .utf8),
            "note.schema.json": Array(
                #"{"x-cairn":{"path":"users/{uid}/notes/{id}"},"type":"object","properties":{"text":{"type":"string"}}}"#.utf8),
        ])
        let note = try DocumentPath("users/u1/notes/n1")
        let base: [DocumentPath: JSONValue] = [note: .object(["text": .string("a")])]
        var ours = base
        ours[note] = .object(["text": .string("b")])
        var theirs = base
        theirs[try DocumentPath("users/u1/notes/n2")] = .object(["text": .string("c")])
        let pointer = StoreLayout.assetPointerFile(of: note, field: "photo")
        let stale = try repository.writeBlob(Array("version https://git-lfs.github.com/spec/v1\n".utf8))
        func withPointer(_ documents: [DocumentPath: JSONValue]) throws -> ObjectID {
            try repository.updateTree(tree(documents), with: [.upsert(path: pointer, id: stale, mode: 0o100644)]).id
        }
        let outcome = try StoreMerge(repository: repository, schemaSet: set, codec: .plain)
            .merge(base: withPointer(base), ours: withPointer(ours), theirs: withPointer(theirs))
        #expect(try repository.entry(at: pointer, inTree: outcome.tree) == nil)
        #expect(try documents(outcome.tree)[note] == .object(["text": .string("b")]))
    }

    /// One side brought a schema set whose count takes other documents (only the ripe
    /// plants, where the ancestor's took every plant): the ancestor's count means something
    /// else, so the merge counts in full rather than move it by difference.
    @Test func aCountWhoseDefinitionChangedIsCountedInFull() throws {
        func set(_ filter: String) -> [UInt8] {
            Array(
                #"{"x-cairn":{"path":"users/{uid}/gardens/{id}"},"type":"object","properties":{"plants":{"type":"integer","x-merge":{"derive":{"countDocuments":"plants"\#(filter)}}}}}"#
                    .utf8)
        }
        let plant = #"{"x-cairn":{"path":"users/{uid}/gardens/{g}/plants/{id}"},"type":"object"}"#
        let (every, ripe) = (set(""), set(#","where":{"ripe":true}"#))
        let merging = try SchemaSet(files: ["garden.schema.json": ripe, "plant.schema.json": Array(plant.utf8)])
        let garden = try DocumentPath("users/u1/gardens/g1")
        var base: [DocumentPath: JSONValue] = [garden: .object(["plants": .integer(2)])]
        base[try DocumentPath("users/u1/gardens/g1/plants/p1")] = .object(["ripe": .bool(true)])
        base[try DocumentPath("users/u1/gardens/g1/plants/p2")] = .object(["ripe": .bool(false)])
        var theirs = base
        theirs[try DocumentPath("users/u1/gardens/g1/plants/p3")] = .object(["ripe": .bool(true)])
        func withSet(_ documents: [DocumentPath: JSONValue], _ schema: [UInt8]) throws -> ObjectID {
            try repository.updateTree(
                tree(documents),
                with: [
                    .upsert(path: StoreLayout.schemaFolder + "/garden.schema.json", id: repository.writeBlob(schema), mode: 0o100644)
                ]
            ).id
        }
        let outcome = try StoreMerge(repository: repository, schemaSet: merging, codec: .plain)
            .merge(base: withSet(base, every), ours: withSet(base, ripe), theirs: withSet(theirs, every))
        let merged = try #require(try repository.entry(at: garden.fileName, inTree: outcome.tree))
        #expect(try JSONParser().parse(repository.blobContent(merged.id)).field("plants") == .integer(2))
    }

    /// Two devices that each merged the other's work (a criss-cross) then merge again: the
    /// counter of attempts counts each device's increments once, not twice.
    @Test func crissCrossMergesCountEachIncrementOnce() throws {
        let set = try Self.schemaSet("life-in-uk")
        let merge = StoreMerge(repository: repository, schemaSet: set, codec: .plain)
        let who = Signature(name: "Cairn", email: "u1@cairn.invalid", time: 1_700_000_000)
        func commit(_ tree: ObjectID, _ parents: [ObjectID]) throws -> ObjectID {
            try repository.createCommit(tree: tree, parents: parents, message: "c\n", author: who, committer: who, updating: nil)
        }
        let path = try DocumentPath("users/u1/progress/exam")
        func summary(_ count: Int64) -> [DocumentPath: JSONValue] {
            [
                path: .object([
                    "schemaVersion": .integer(1), "examSummaries": .object(["practice-1": .object(["attemptCount": .integer(count)])]),
                ])
            ]
        }
        func count(_ commitID: ObjectID) throws -> JSONValue? {
            try documents(repository.commit(commitID).treeID)[path]?.field("examSummaries")?.field("practice-1")?.field("attemptCount")
        }
        let base = try commit(tree(summary(1)), [])
        let phone = try commit(tree(summary(2)), [base])  // +1 on the phone
        let tablet = try commit(tree(summary(4)), [base])  // +3 on the tablet
        // Each device merges the other's commit: both get 5.
        let phoneMerge = try commit(merge.merge(commit: phone, with: tablet).tree, [phone, tablet])
        let tabletMerge = try commit(merge.merge(commit: tablet, with: phone).tree, [tablet, phone])
        #expect(try count(phoneMerge) == .integer(5))
        #expect(try count(tabletMerge) == .integer(5))
        // Then more on each side, and a merge with two merge bases.
        let phoneLater = try commit(tree(summary(6)), [phoneMerge])  // +1
        let tabletLater = try commit(tree(summary(7)), [tabletMerge])  // +2
        #expect(try repository.mergeBases(phoneLater, tabletLater).count == 2)
        let final = try commit(merge.merge(commit: phoneLater, with: tabletLater).tree, [phoneLater, tabletLater])
        #expect(try count(final) == .integer(8))  // 1 + 1 + 3 + 1 + 2
        #expect(try merge.merge(commit: tabletLater, with: phoneLater).tree == repository.commit(final).treeID)
    }

    /// Seed 002's "no orphans": one device deletes a profile with its habits while the other
    /// changed a habit. The change is kept, so the profile comes back, recorded.
    @Test func aCascadeDeleteLosesToAChangeBelowItWithoutOrphans() throws {
        let set = try Self.schemaSet("remi")
        let profile = try DocumentPath("users/u1/profiles/+447700900123")
        let habit = try DocumentPath("users/u1/profiles/+447700900123/habits/h1")
        let message = try DocumentPath("users/u1/profiles/+447700900123/messages/m1")
        let base: [DocumentPath: JSONValue] = [
            profile: .object(["phoneNumber": .string("+447700900123")]),
            habit: .object(["title": .string("Walk"), "completionCount": .integer(1)]),
            message: .object(["textResponse": .string("done")]),
        ]
        let deleted: [DocumentPath: JSONValue] = [:]
        var changed = base
        changed[habit] = .object(["title": .string("Walk"), "completionCount": .integer(2)])
        let merge = StoreMerge(repository: repository, schemaSet: set, codec: .plain)
        let outcome = try merge.merge(base: tree(base), ours: tree(deleted), theirs: tree(changed))
        let merged = try documents(outcome.tree)
        #expect(merged[habit]?.field("completionCount") == .integer(2))
        #expect(merged[profile] == base[profile], "the parent comes back")
        #expect(merged[message] == nil, "what nobody changed stays deleted")
        #expect(outcome.conflicts.contains { $0.document == profile && $0.policy == .cascade && $0.replaced == nil })
        #expect(try merge.merge(base: tree(base), ours: tree(changed), theirs: tree(deleted)).tree == outcome.tree)
        #expect(
            merged.mapValues { $0.canonicalBytes() }
                == set.mergeDocuments(base: base, ours: deleted, theirs: changed).documents.mapValues { $0.canonicalBytes() })
    }
}
