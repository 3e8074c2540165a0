import CairnMerge
import CairnTestSupport
import Testing

/// Each policy keeps the laws, and does what it is for.
@Suite struct MergePolicyTests {
    func json(_ text: String) throws -> JSONValue { try JSONParser().parse(text) }

    @Test func fieldsKeepsTheLaws() {
        MergeLaws.check(.plain, seed: 1) { MergeSamples.sample(&$0) { MergeSamples.object(&$0) } }
        MergeLaws.check(.fields(["a": .counter, "b": .max], others: nil), seed: 2) {
            MergeSamples.sample(&$0) { MergeSamples.object(&$0) }
        }
    }

    @Test func sidePickersKeepTheLaws() {
        let stamped: (inout SplitMix) -> JSONValue = { generator in
            var value = MergeSamples.object(&generator)
            if case .object(var fields) = value {
                fields["t"] = .integer(Int64.random(in: 0...3, using: &generator))
                fields["v"] = .integer(Int64.random(in: 0...2, using: &generator))
                value = .object(fields)
            }
            return value
        }
        MergeLaws.check(.lww("t", children: [:]), seed: 3) { MergeSamples.sample(&$0, draw: stamped) }
        MergeLaws.check(.lww("t", children: ["a": .counter, "b": .plain]), seed: 4) { MergeSamples.sample(&$0, draw: stamped) }
        MergeLaws.check(.highest("v", then: "t", children: [:]), seed: 5) { MergeSamples.sample(&$0, draw: stamped) }
        MergeLaws.check(.highest("v", then: nil, children: ["c": .union]), seed: 6) { MergeSamples.sample(&$0, draw: stamped) }
    }

    @Test func entriesKeepTheLaws() {
        let sections: (inout SplitMix) -> JSONValue = { generator in
            var entries: JSONObject = [:]
            for key in ["s1", "s2", "s3", "s4"] where Bool.random(using: &generator) {
                entries[key] = .object([
                    "completed": .bool(Bool.random(using: &generator)),
                    "updatedAt": .integer(Int64.random(in: 0...3, using: &generator)),
                ])
            }
            return .object(entries)
        }
        MergeLaws.check(.entriesLatest(by: "updatedAt"), seed: 7) { MergeSamples.sample(&$0, draw: sections) }
    }

    @Test func numericPoliciesKeepTheLaws() {
        let number: (inout SplitMix) -> JSONValue = { generator in
            Bool.random(using: &generator)
                ? .integer(Int64.random(in: -5...5, using: &generator))
                : .double(Double(Int.random(in: -10...10, using: &generator)) / 4)
        }
        MergeLaws.check(.max, seed: 8) { MergeSamples.sample(&$0, draw: number) }
        MergeLaws.check(.min, seed: 9) { MergeSamples.sample(&$0, draw: number) }
        MergeLaws.check(.counter, seed: 10) { MergeSamples.sample(&$0, draw: number) }
        MergeLaws.check(.union, seed: 11) { MergeSamples.sample(&$0) { MergeSamples.value(&$0) } }
        MergeLaws.check(.appendOnly, seed: 12) { MergeSamples.sample(&$0) { MergeSamples.object(&$0) } }
        MergeLaws.check(.appendOnlyLatest(by: "a"), seed: 14) { MergeSamples.sample(&$0) { MergeSamples.object(&$0) } }
    }

    /// Swift takes "é" (NFC) and "e\u{301}" (NFD) as one key; the merged key has one
    /// spelling whichever side merges.
    @Test func keysInTwoNormalizationFormsMergeToTheSameBytes() throws {
        let ours = JSONValue.object(["\u{E9}": .integer(1), "n": .integer(1)])
        let theirs = JSONValue.object(["e\u{301}": .integer(2), "n": .integer(2)])
        for policy in [MergePolicy.plain, .entriesLatest(by: "t")] {
            let forward = policy.merge(base: .object([:]), ours: ours, theirs: theirs)
            let backward = policy.merge(base: .object([:]), ours: theirs, theirs: ours)
            #expect(forward.value?.canonicalBytes() == backward.value?.canonicalBytes(), "\(policy.name)")
            #expect(forward.value?.canonicalText.contains("e\u{301}") == true, "the first spelling in UTF-8 order")
        }
    }

    @Test func counterLosesNoIncrement() {
        var generator = SplitMix(seed: 13)
        for _ in 0..<2_000 {
            let base = Int64.random(in: -100...100, using: &generator)
            let ours = base + Int64.random(in: -5...5, using: &generator)
            let theirs = base + Int64.random(in: -5...5, using: &generator)
            let merged = MergePolicy.counter.merge(base: .integer(base), ours: .integer(ours), theirs: .integer(theirs))
            #expect(merged.value == .integer(base + (ours - base) + (theirs - base)))
            #expect(merged.conflicts.isEmpty)
        }
        // Two devices, each one more attempt from 3: five.
        #expect(MergePolicy.counter.merge(base: .integer(3), ours: .integer(4), theirs: .integer(4)).value == .integer(5))
        #expect(MergePolicy.counter.merge(base: nil, ours: .integer(1), theirs: .integer(2)).value == .integer(3))
        // Near the top of the integers: the sum fits, though ours + theirs would not.
        let high: Int64 = 9_000_000_000_000_000_000
        for (ours, theirs) in [(high + 1, high + 2), (high + 2, high + 1)] {
            let merged = MergePolicy.counter.merge(base: .integer(high), ours: .integer(ours), theirs: .integer(theirs))
            #expect(merged.value == .integer(high + 3) && merged.conflicts.isEmpty)
        }
        // A sum that does not fit is decided by content, the same both ways, and recorded.
        let over = MergePolicy.counter.merge(base: .integer(0), ours: .integer(.max), theirs: .integer(1))
        #expect(over.value == MergePolicy.counter.merge(base: .integer(0), ours: .integer(1), theirs: .integer(.max)).value)
        #expect(over.conflicts.count == 1)
    }

    @Test func fieldsTakesEachSidesOwnChangesAndRecordsRealConflicts() throws {
        let merged = MergePolicy.plain.merge(
            base: try json(#"{"a":1,"b":1,"c":1,"d":{"x":1,"y":1}}"#),
            ours: try json(#"{"a":2,"b":1,"c":5,"d":{"x":2,"y":1}}"#),
            theirs: try json(#"{"a":1,"b":3,"c":7,"d":{"x":1,"y":2},"e":true}"#))
        #expect(merged.value == (try json(#"{"a":2,"b":3,"c":7,"d":{"x":2,"y":2},"e":true}"#)))
        #expect(merged.conflicts == [ConflictRecord(pointer: "/c", policy: .fields, kept: .integer(7), replaced: .integer(5))])
    }

    @Test func aModificationBeatsADeleteAndIsRecorded() throws {
        let merged = MergePolicy.plain.merge(base: try json(#"{"a":1}"#), ours: nil, theirs: try json(#"{"a":2}"#))
        #expect(merged.value == (try json(#"{"a":2}"#)))
        #expect(merged.conflicts.map(\.replaced) == [nil])
    }

    @Test func lwwTakesTheLaterSideWhole() throws {
        let policy = MergePolicy.lww("clientUpdatedAt", children: [:])
        let merged = policy.merge(
            base: try json(#"{"clientUpdatedAt":1,"answers":{"Q1":["0"]},"currentQuestionIndex":1}"#),
            ours: try json(#"{"clientUpdatedAt":5,"answers":{"Q1":["0"],"Q2":["1"]},"currentQuestionIndex":2}"#),
            theirs: try json(#"{"clientUpdatedAt":3,"answers":{"Q1":["2"]},"currentQuestionIndex":7}"#))
        #expect(merged.value?.canonicalText.contains("\"currentQuestionIndex\": 2") == true)
        #expect(merged.conflicts.count == 1)
        #expect(merged.conflicts[0].replaced?.canonicalText.contains("\"currentQuestionIndex\": 7") == true)
    }

    @Test func anExamSummaryCountsAttemptsKeepsTheBestAndTheLatestLastFields() throws {
        // progress/exam examSummaries entries, as seed 000 §5 and §8 ask.
        let entry = MergePolicy.lww("lastCompletedAt", children: ["attemptCount": .counter, "bestScore": .max])
        let merged = entry.merge(
            base: try json(
                #"{"attemptCount":3,"bestScore":92,"lastScore":83,"lastStatus":"passed","lastCompletedAt":"2025-12-01T10:00:00.000Z"}"#),
            ours: try json(
                #"{"attemptCount":4,"bestScore":95,"lastScore":95,"lastStatus":"passed","lastCompletedAt":"2025-12-02T09:00:00.000Z"}"#),
            theirs: try json(
                #"{"attemptCount":4,"bestScore":92,"lastScore":60,"lastStatus":"failed","lastCompletedAt":"2025-12-03T08:00:00.000Z"}"#))
        #expect(
            merged.value
                == (try json(
                    #"{"attemptCount":5,"bestScore":95,"lastScore":60,"lastStatus":"failed","lastCompletedAt":"2025-12-03T08:00:00.000Z"}"#))
        )
    }

    @Test func unionAddsWhatEitherAddedAndDropsWhatEitherRemoved() throws {
        let merged = MergePolicy.union.merge(
            base: try json(#"["Q1","Q2","Q3"]"#),
            ours: try json(#"["Q1","Q3","Q9"]"#),
            theirs: try json(#"["Q2","Q1","Q3","Q4"]"#))
        #expect(merged.value == (try json(#"["Q1","Q3","Q4","Q9"]"#)))
    }

    @Test func appendOnlyRefusesChangesAndDeletesAndKeepsTheFirst() throws {
        let attempt = try json(#"{"attemptId":"a1","score":83}"#)
        let changed = MergePolicy.appendOnly.merge(base: attempt, ours: try json(#"{"attemptId":"a1","score":100}"#), theirs: nil)
        #expect(changed.value == attempt)
        #expect(changed.conflicts.count == 2)
        let twice = MergePolicy.appendOnly.merge(base: nil, ours: attempt, theirs: attempt)
        #expect(twice.value == attempt && twice.conflicts.isEmpty)
        // A duplicate answer given on two devices: the later one stays.
        let early = try json(#"{"answer":"B","answered_at":"2026-11-20T10:00:00Z"}"#)
        let late = try json(#"{"answer":"A","answered_at":"2026-11-20T10:05:00Z"}"#)
        let duplicate = MergePolicy.appendOnlyLatest(by: "answered_at").merge(base: nil, ours: late, theirs: early)
        #expect(duplicate.value == late)
        #expect(duplicate.conflicts.map(\.replaced) == [early])
        // …and once created, it is not changed.
        #expect(MergePolicy.appendOnlyLatest(by: "answered_at").merge(base: early, ours: late, theirs: early).value == early)
    }

    @Test func keysWithSlashesAndTildesAreEscapedInPointers() throws {
        let merged = MergePolicy.plain.merge(
            base: try json(#"{"a/b":{"~x":1}}"#),
            ours: try json(#"{"a/b":{"~x":2}}"#),
            theirs: try json(#"{"a/b":{"~x":3}}"#))
        #expect(merged.conflicts.map(\.pointer) == ["/a~1b/~0x"])
    }
}

@Suite struct StampOrderTests {
    @Test func aStampNotSetYetLosesToAnySetOne() {
        let policy = MergePolicy.lww("processedAt", children: [:])
        let merged = policy.merge(
            base: .object(["n": .integer(0)]),
            ours: .object(["n": .integer(1), "processedAt": .null]),
            theirs: .object(["n": .integer(2), "processedAt": .integer(5)]))
        #expect(merged.value?.field("n") == .integer(2))
        #expect(MergePolicy.max.merge(base: .integer(1), ours: .null, theirs: .integer(3)).value == .integer(3))
    }
}

@Suite struct ConflictRecordTests {
    @Test func aRecordOfTwoObjectsShowsTheFieldsThatDiffer() throws {
        let record = ConflictRecord(
            document: try DocumentPath("users/u1/boards/b1"), pointer: "", policy: .highest("version", then: nil),
            kept: try JSONParser().parse(#"{"name":"Laptop","version":3,"size":3}"#),
            replaced: try JSONParser().parse(#"{"name":"Phone","version":2,"size":3}"#))
        #expect(
            record.description
                == #"users/u1/boards/b1 [highest(version)] kept { "name": "Laptop", "version": 3 }, replaced { "name": "Phone", "version": 2 }"#
        )
        let deleted = ConflictRecord(pointer: "/a", policy: .fields, kept: .integer(1), replaced: nil)
        #expect(deleted.description == "/a [fields] kept 1, replaced (deleted)")
    }
}
