import CairnMerge
import Testing

/// A merge moves a count from the common ancestor's by what the documents that differ did,
/// reading only those: on stores whose counts are right (as every put leaves them), it must
/// give what counting every document of the merged store gives, whichever side is `ours`.
/// The garden app is one nobody here wrote: a garden counts its beds, the plants of every
/// bed, and the ripe ones.
@Suite struct ACountMergesByDifferenceTests {
    static let set: SchemaSet = {
        let files = [
            "garden.schema.json": #"""
            {"x-cairn": {"path": "users/{uid}/gardens/{gardenId}"}, "type": "object",
             "properties": {
               "name": {"type": "string", "x-merge": "max"},
               "beds": {"type": "integer", "x-merge": {"derive": {"countDocuments": "beds"}}},
               "plants": {"type": "integer", "x-merge": {"derive": {"countDocuments": "beds/*/plants"}}},
               "ripe": {"type": "integer", "x-merge": {"derive": {"countDocuments": "beds/*/plants", "where": {"ripe": true}}}}}}
            """#,
            "bed.schema.json": #"{"x-cairn": {"path": "users/{uid}/gardens/{gardenId}/beds/{bedId}"}, "type": "object"}"#,
            "plant.schema.json":
                #"{"x-cairn": {"path": "users/{uid}/gardens/{gardenId}/beds/{bedId}/plants/{plantId}"}, "type": "object"}"#,
        ]
        return try! SchemaSet(files: files.mapValues { Array($0.utf8) })
    }()
    static let garden = try! DocumentPath("users/u1/gardens/g1")

    static func plant(_ bed: Int, _ id: Int) -> DocumentPath {
        try! DocumentPath("users/u1/gardens/g1/beds/b\(bed)/plants/p\(id)")
    }

    static func bed(_ bed: Int) -> DocumentPath {
        try! DocumentPath("users/u1/gardens/g1/beds/b\(bed)")
    }

    /// A device's edits of `store`: plants added, ripened, changed or removed, beds added or
    /// removed with their plants, the garden renamed.
    static func edit(_ store: [DocumentPath: JSONValue], _ random: inout SplitMix) -> [DocumentPath: JSONValue] {
        var store = store
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let (number, id) = (Int.random(in: 0...2, using: &random), Int.random(in: 0...3, using: &random))
            switch Int.random(in: 0...5, using: &random) {
            case 0, 1:
                store[plant(number, id)] = .object([
                    "ripe": .bool(Bool.random(using: &random)), "mark": .integer(Int64.random(in: 0...99, using: &random)),
                ])
            case 2: store[plant(number, id)] = .object(["mark": .integer(Int64.random(in: 0...99, using: &random))])
            case 3: store[plant(number, id)] = nil
            case 4:
                store[bed(number)] = nil
                for id in 0...3 { store[plant(number, id)] = nil }
            default:
                store[bed(number)] = .object(["row": .integer(Int64(number))])
                store[garden] = .object(["name": .string("Garden \(Int.random(in: 0...9, using: &random))")])
            }
        }
        // As a put leaves it: every count what its documents give.
        return set.filledAll(store)
    }

    @Test func aMergeOfStoresWhoseCountsAreRightCountsWhatTheMergedStoreHolds() throws {
        var random = SplitMix(seed: 1919)
        var merged = 0
        for round in 0..<300 {
            var base: [DocumentPath: JSONValue] = [Self.garden: .object(["name": .string("Back")])]
            for bed in 0...2 where Bool.random(using: &random) { base[Self.bed(bed)] = .object(["row": .integer(Int64(bed))]) }
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                base[Self.plant(Int.random(in: 0...2, using: &random), Int.random(in: 0...3, using: &random))] =
                    .object(["ripe": .bool(Bool.random(using: &random))])
            }
            base = Self.set.filledAll(base)
            let (ours, theirs) = (Self.edit(base, &random), Self.edit(base, &random))
            let outcome = Self.set.mergeDocuments(base: base, ours: ours, theirs: theirs)
            let reversed = Self.set.mergeDocuments(base: base, ours: theirs, theirs: ours)
            #expect(outcome.documents == reversed.documents, "round \(round): the result depends on the side")
            let counted = Self.set.filledAll(outcome.documents)
            #expect(
                outcome.documents[Self.garden] == counted[Self.garden],
                "round \(round): \(outcome.documents[Self.garden]?.canonicalText ?? "-") against \(counted[Self.garden]?.canonicalText ?? "-")"
            )
            if outcome.documents[Self.garden] != base[Self.garden] { merged += 1 }
        }
        // The rounds changed the counts often enough to mean something.
        #expect(merged > 150)
    }

    /// An ancestor whose count was wrong (5 plants counted, 3 there), which one side
    /// corrected (a sync's correction) while the other added a plant: that side's count
    /// is not the ancestor's moved by its own changes, so the merge counts in full rather
    /// than undo the correction.
    @Test func aSideThatCorrectedTheAncestorsCountIsNotUndone() throws {
        var base = Self.set.filledAll([
            Self.garden: .object(["name": .string("Back")]),
            Self.plant(0, 0): .object(["ripe": .bool(true)]),
            Self.plant(0, 1): .object(["ripe": .bool(true)]),
            Self.plant(0, 2): .object(["ripe": .bool(false)]),
        ])
        let corrected = base[Self.garden]!
        var wrong = corrected.objectValue!
        wrong["plants"] = .integer(5)
        base[Self.garden] = .object(wrong)
        var ours = base
        ours[Self.garden] = corrected
        var theirs = base
        theirs[Self.plant(1, 0)] = .object(["ripe": .bool(false)])
        wrong["plants"] = .integer(6)
        theirs[Self.garden] = .object(wrong)
        for (one, other) in [(ours, theirs), (theirs, ours)] {
            let merged = Self.set.mergeDocuments(base: base, ours: one, theirs: other).documents
            #expect(merged[Self.garden]?.field("plants") == .integer(4))
        }
    }

    /// An ancestor whose count is no whole number (another tool's value) gives nothing to
    /// move from: the merge counts every document of the merged store.
    @Test func anAncestorWithoutAWholeNumberIsCountedInFull() throws {
        var base = Self.set.filledAll([
            Self.garden: .object(["name": .string("Back")]),
            Self.plant(0, 0): .object(["ripe": .bool(true)]),
        ])
        var garden = base[Self.garden]!.objectValue!
        garden["plants"] = .string("one")
        base[Self.garden] = .object(garden)
        var ours = base
        ours[Self.plant(1, 1)] = .object(["ripe": .bool(true)])
        var theirs = base
        theirs[Self.plant(0, 0)] = nil
        theirs[Self.plant(2, 2)] = .object(["ripe": .bool(false)])
        let merged = Self.set.mergeDocuments(base: base, ours: ours, theirs: theirs).documents
        #expect(merged[Self.garden]?.field("plants") == .integer(2))
        #expect(merged[Self.garden]?.field("ripe") == .integer(1))
    }
}
