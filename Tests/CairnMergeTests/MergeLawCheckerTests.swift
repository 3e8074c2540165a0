import CairnMerge
import CairnMergeLaws
import CairnTestSupport
import Testing

/// The law checker as a product: the laws hold for every kind of every shipped set, and a
/// merge that breaks one is caught with a small counter-example.
@Suite struct MergeLawCheckerTests {
    @Test(arguments: ShippedSchemaSetsTests.sets)
    func theLawsHoldForEveryKindOfEveryShippedSet(_ name: String) throws {
        let set = try SchemaSet(files: shippedSchemaSet(name).files)
        let generator = DocumentGenerator(set: set)
        for (index, kind) in set.kinds.enumerated() {
            var random = SplitMix(seed: UInt64(index))
            let path = try generator.path(of: kind, using: &random)
            let checker = MergeLawChecker(set: set, path: path)
            let found = try checker.check(cases: 300, seed: UInt64(index)) { random throws(GenerationError) in
                try generator.lawCase(of: kind, at: path, using: &random)
            }
            #expect(found.isEmpty, "\(name) \(kind.pattern): \(found.map { checker.shrink($0).description })")
        }
    }

    /// A merge that lets "ours" win a conflict is not symmetric: the checker finds it in the
    /// book documents of life-in-uk and shrinks the case to a few values.
    @Test func aMergeThatFavoursOneSideIsCaughtWithAMinimalCounterExample() throws {
        let set = try SchemaSet(files: shippedSchemaSet("life-in-uk").files)
        let kind = try #require(set.kinds.first { $0.pattern.description.hasSuffix("books/{bookId}") })
        let path = try DocumentPath("users/u1/books/b1")
        let generator = DocumentGenerator(set: set)
        let favoursOurs = MergeLawChecker(name: "favours ours") { base, ours, theirs in
            let outcome = set.merge(path, base: base, ours: ours, theirs: theirs)
            // Where both sides changed a document, ours is taken whole.
            guard !JSONValue.same(ours, base), !JSONValue.same(theirs, base), let ours else { return outcome }
            return MergeOutcome(value: ours, conflicts: [])
        }
        let found = try favoursOurs.check(cases: 500, seed: 5, limit: 1) { random throws(GenerationError) in
            try generator.lawCase(of: kind, at: path, using: &random)
        }
        let violation = try #require(found.first)
        #expect(violation.law == .symmetry && violation.caseNumber != nil)
        let minimal = favoursOurs.shrink(violation)
        #expect(minimal.law == .symmetry)
        #expect(!favoursOurs.violations(of: minimal.sides).filter { $0.law == .symmetry }.isEmpty, "the shrunk case still breaks the law")
        func size(_ value: JSONValue?) -> Int { value?.canonicalBytes().count ?? 0 }
        let sizes: [Int] = [size(minimal.sides.base), size(minimal.sides.ours), size(minimal.sides.theirs)]
        let before: [Int] = [size(violation.sides.base), size(violation.sides.ours), size(violation.sides.theirs)]
        let total: Int = sizes.reduce(0, +)
        #expect(total < before.reduce(0, +), "shrunk from \(before) to \(sizes)")
        // Nothing left to drop: each side is absent or an object of one small field at most.
        #expect(sizes.allSatisfy { $0 <= 24 }, "\(sizes) \(minimal)")
        #expect(minimal.description.contains("merge(base, ours, theirs):") && minimal.description.contains("symmetry broken at"))
    }

    @Test func identityAndIdempotenceAreCheckedWithTheirExceptions() {
        // A counter merged as max: two equal increments count once — not a counter's laws.
        let counterAsMax = MergeLawChecker(name: "counter as max", idempotent: false) { base, ours, theirs in
            MergePolicy.max.merge(base: base, ours: ours, theirs: theirs)
        }
        #expect(counterAsMax.violations(of: LawCase(base: .integer(1), ours: .integer(2), theirs: .integer(2))).isEmpty)
        // A merge that forgets a deletion breaks identity.
        let keepsDeleted = MergeLawChecker(name: "keeps deleted") { base, ours, theirs in
            MergeOutcome(value: ours ?? theirs ?? base, conflicts: [])
        }
        let broken = keepsDeleted.violations(of: LawCase(base: .integer(1), ours: .integer(1), theirs: nil))
        #expect(broken.map { $0.law }.contains(MergeLaw.identity) && broken.allSatisfy { $0.sides.base == .integer(1) }, "\(broken)")
        // Append-only keeps its base: a change refused is not a broken identity.
        #expect(
            MergeLawChecker(policy: .appendOnly).violations(of: LawCase(base: .object([:]), ours: .object(["a": .integer(1)]), theirs: nil))
                .isEmpty)
        // …but three equal sides merge to that value, append-only too.
        let dropsKept = MergeLawChecker(name: "drops what it keeps", keepsBase: true) { base, _, _ in
            MergeOutcome(value: base == nil ? nil : .object([:]), conflicts: [])
        }
        let same = JSONValue.object(["a": .integer(1)])
        let unchanged = dropsKept.violations(of: LawCase(base: same, ours: same, theirs: same))
        #expect(unchanged.map(\.law) == [.identity, .idempotence, .identity, .idempotence], "\(unchanged)")
        #expect(dropsKept.violations(of: LawCase(base: same, ours: .object([:]), theirs: nil)).isEmpty)
    }
}

/// A count in a document, raised by one on each of two devices from the same base, where the
/// two documents come out the same bytes (the rest of them equal too): the Design article, *Policies* promises
/// base + (ours − base) + (theirs − base), so equal sides of a document that counts are two
/// changes, not one — in the policy's merge and in the merge of whole stores, where the two
/// sides hold the same blob. `cairn simulate` found it (a set whose documents hold only a
/// counter, seed 1).
@Suite struct EqualIncrementsTests {
    @Test func twoEqualIncrementsOfACountInADocumentAreTwo() {
        let policy = MergePolicy.fields(["n": .counter], others: nil)
        let outcome = policy.merge(
            base: .object(["n": .integer(5)]), ours: .object(["n": .integer(6)]), theirs: .object(["n": .integer(6)]))
        #expect(outcome.value == .object(["n": .integer(7)]))
        #expect(outcome.conflicts.isEmpty)
        // Inside a side-picking policy too: the count is the key's own.
        let latest = MergePolicy.lww("at", children: ["n": .counter])
        let side = JSONValue.object(["at": .integer(2), "n": .integer(6)])
        #expect(
            latest.merge(base: .object(["at": .integer(1), "n": .integer(5)]), ours: side, theirs: side).value
                == .object(["at": .integer(2), "n": .integer(7)]))
    }

    @Test func equalDocumentsOnBothSidesOfAStoreMergeCountTwice() throws {
        let schema =
            #"{"x-cairn":{"path":"users/{uid}/counts/{id}"},"type":"object","properties":{"n":{"type":"integer","x-merge":"counter"},"label":{"type":"string"}}}"#
        let set = try SchemaSet(files: ["count.schema.json": Array(schema.utf8)])
        let path = try DocumentPath("users/u1/counts/c1")
        let other = try DocumentPath("users/u1/notes/x")
        let base: [DocumentPath: JSONValue] = [path: .object(["n": .integer(5), "label": .string("a")])]
        let raised: [DocumentPath: JSONValue] = [path: .object(["n": .integer(6), "label": .string("a")])]
        let merged = set.mergeDocuments(base: base, ours: raised, theirs: raised)
        #expect(merged.documents[path] == .object(["n": .integer(7), "label": .string("a")]))
        // A document without a count, the same on both sides, is one change.
        let plain: [DocumentPath: JSONValue] = [other: .object(["text": .string("hi")])]
        #expect(set.mergeDocuments(base: [:], ours: plain, theirs: plain).documents == plain)
        // Deleted on both sides: gone, nothing counted.
        #expect(set.mergeDocuments(base: base, ours: [:], theirs: [:]).documents.isEmpty)
    }

    @Test func theLawCheckerDoesNotAskIdempotenceOfAPolicyThatCounts() {
        #expect(MergePolicy.fields(["n": .counter], others: nil).countsIncrements)
        #expect(!MergePolicy.fields(["n": .max], others: nil).countsIncrements)
        #expect(!MergeLawChecker(policy: .fields(["n": .counter], others: nil)).idempotent)
    }
}
