import CairnMerge
import CairnTestSupport
import Testing

/// Last-writer-wins with device clocks that disagree: hours apart, equal, or ahead of the
/// device that merges. The merge stays a function of its inputs (and, for stamps from the
/// future, of the merging device's clock), the same whichever side merges.
@Suite struct ClockSkewTests {
    func json(_ text: String) throws -> JSONValue { try JSONParser().parse(text) }

    /// 2026-11-22T09:00:00Z, the merging device's clock in these tests.
    let now: Int64 = 1_795_338_000_000
    let hour: Int64 = 3_600_000

    func section(_ done: Bool, at stamp: Int64) -> JSONValue {
        .object(["completed": .bool(done), "updatedAt": .integer(stamp)])
    }

    func merge(
        _ policy: MergePolicy, _ base: JSONValue?, _ ours: JSONValue?, _ theirs: JSONValue?,
        clock: Int64? = nil
    ) -> MergeOutcome {
        policy.merge(base: base, ours: ours, theirs: theirs, context: MergeContext(clock: clock))
    }

    @Test func clocksHoursApartTheLaterStampWinsWhicheverSideMerges() {
        let policy = MergePolicy.lww("updatedAt", children: [:])
        let base = section(false, at: now - 10 * hour)
        // The phone's clock is three hours behind the tablet's: its write is still the
        // earlier stamp, and loses, on both devices.
        let phone = section(true, at: now - 4 * hour)
        let tablet = section(false, at: now - hour)
        for clock in [nil, now] {
            let one = merge(policy, base, phone, tablet, clock: clock)
            let other = merge(policy, base, tablet, phone, clock: clock)
            #expect(one.value == tablet)
            #expect(other.value == tablet)
            #expect(one.conflicts.count == 1 && one.conflicts[0].note == nil)
        }
    }

    @Test func equalStampsAreDecidedByContentTheSameWayOnBothSides() throws {
        let policy = MergePolicy.lww("updatedAt", children: [:])
        let base = section(false, at: now - hour)
        let a = section(true, at: now)
        let b = try json(#"{"completed":false,"note":"x","updatedAt":\#(now)}"#)
        let one = merge(policy, base, a, b)
        let other = merge(policy, base, b, a)
        #expect(one.value == other.value)
        #expect(one.conflicts == other.conflicts)
        // The greater value in canonical order stays, whoever merges, every time.
        let kept = JSONValue.canonicalOrder(a, b) > 0 ? a : b
        #expect(one.value == kept)
        for _ in 0..<10 { #expect(merge(policy, base, a, b) == one) }
    }

    @Test func aStampFromTheFutureIsFlaggedAndStillCountsByDefault() {
        let policy = MergePolicy.lww("updatedAt", children: [:])
        let base = section(false, at: now - hour)
        let ahead = section(true, at: now + 3 * hour)
        let recent = section(false, at: now - 60_000)
        let outcome = merge(policy, base, recent, ahead, clock: now)
        #expect(outcome.value == ahead)
        #expect(outcome.conflicts.count == 1)
        #expect(outcome.conflicts[0].note == "a stamp 3 h 0 min ahead of the merging device's clock")
        #expect(outcome.conflicts[0].description.contains("(a stamp 3 h 0 min ahead of the merging device's clock)"))
        // Within the allowance (5 minutes), a stamp is not from the future.
        let close = merge(policy, base, recent, section(true, at: now + 4 * 60_000), clock: now)
        #expect(close.conflicts.allSatisfy { $0.note == nil })
        // Without a clock (a pure merge), nothing is flagged and the result is the same.
        #expect(merge(policy, base, recent, ahead).value == ahead)
        #expect(merge(policy, base, recent, ahead).conflicts[0].note == nil)
    }

    @Test func clampingCountsAStampFromTheFutureAsTheMergingClock() throws {
        let policy = try MergePolicy(schema: json(#"{"type":"object","x-merge":{"lww":"updatedAt","future":"clamp"}}"#))
        #expect(policy == .lww("updatedAt", children: [:], future: .clamp))
        #expect(policy.name.rawValue == "lww(updatedAt, future clamped)")
        let base = section(false, at: now - hour)
        let ahead = section(true, at: now + 3 * hour)
        // Written a minute ago by a device whose clock is right: still older than the
        // clamped stamp (the merging clock), so the value from the future stays, carrying
        // the merging clock's time — later writes will beat it.
        let older = merge(policy, base, section(false, at: now - 60_000), ahead, clock: now)
        #expect(older.value == section(true, at: now))
        #expect(older.conflicts[0].note == "a stamp 3 h 0 min ahead of the merging device's clock; counted as \(now)")
        // A write within the allowance ahead of the clock beats it.
        let later = section(false, at: now + 2 * 60_000)
        let outcome = merge(policy, base, ahead, later, clock: now)
        #expect(outcome.value == later)
        #expect(merge(policy, base, later, ahead, clock: now).value == later)
        // Stamps in seconds are clamped in seconds.
        let seconds = merge(
            policy, section(false, at: 1), section(true, at: (now + 3 * hour) / 1_000),
            section(false, at: now / 1_000 - 60), clock: now)
        #expect(seconds.value == section(true, at: now / 1_000))
    }

    @Test func textStampsFromTheFutureAreFlaggedNotClamped() throws {
        let policy = MergePolicy.lww("at", children: [:], future: .clamp)
        let ahead = try json(#"{"at":"2026-11-22T12:00:00Z","v":1}"#)
        let recent = try json(#"{"at":"2026-11-22T10:00:00+01:00","v":2}"#)
        let outcome = merge(policy, try json(#"{"at":"2026-11-21T00:00:00Z","v":0}"#), recent, ahead, clock: now)
        #expect(outcome.value == ahead)
        #expect(outcome.conflicts[0].note == "a stamp 3 h 0 min ahead of the merging device's clock")
    }

    @Test func stampsAreReadAsTimes() {
        #expect(MergeClock.milliseconds(of: .integer(now)) == now)
        #expect(MergeClock.milliseconds(of: .integer(now / 1_000)) == now)
        #expect(MergeClock.milliseconds(of: .string("2026-11-22T09:00:00Z")) == now)
        #expect(MergeClock.milliseconds(of: .string("2026-11-22T10:00:00.5+01:00")) == now + 500)
        #expect(MergeClock.milliseconds(of: .string("2026-11-22T09:00:00.123456Z")) == now + 123)
        #expect(MergeClock.milliseconds(of: .string("1970-01-01T00:00:00Z")) == 0)
        #expect(MergeClock.milliseconds(of: .string("2000-02-29T00:00:00Z")) == 951_782_400_000)
        for text in ["2026-11-22", "2026-13-01T00:00:00Z", "2026-11-22T09:00:00", "2026-11-22T09:00:00.Z", "soon"] {
            #expect(MergeClock.milliseconds(of: .string(text)) == nil, "\(text)")
        }
        #expect(MergeClock.milliseconds(of: .bool(true)) == nil)
    }

    @Test func clampedPoliciesKeepTheLaws() {
        // Stamps around the clock: in the past, at it, within the allowance, hours ahead.
        let stamps = [now - hour, now, now + 60_000, now + 2 * hour, now + 3 * hour]
        let stamped: (inout SplitMix) -> JSONValue = { generator in
            var value = MergeSamples.object(&generator)
            if case .object(var fields) = value {
                fields["t"] = .integer(stamps[Int(generator.next() % UInt64(stamps.count))])
                value = .object(fields)
            }
            return value
        }
        let context = MergeContext(clock: now)
        MergeLaws.check(.lww("t", children: [:], future: .clamp), cases: 1_500, seed: 21, context: context) {
            MergeSamples.sample(&$0, draw: stamped)
        }
        MergeLaws.check(.lww("t", children: [:], future: .flag), cases: 1_500, seed: 22, context: context) {
            MergeSamples.sample(&$0, draw: stamped)
        }
    }

    @Test func aNoteSurvivesTheMergeCommitsRecord() throws {
        let record = ConflictRecord(
            document: try DocumentPath("users/u1/books/b1"), pointer: "/sections/s1",
            policy: .lww("updatedAt", futureClamped: false),
            kept: .integer(1), replaced: .integer(2), note: "a stamp 2 h 0 min ahead of the merging device's clock")
        #expect(ConflictRecord(json: record.jsonValue) == record)
        var plain = record
        plain.note = nil
        #expect(ConflictRecord(json: plain.jsonValue) == plain)
        #expect(plain.jsonValue.field("note") == nil)
    }

    @Test func anUnknownFutureOptionIsRefused() throws {
        #expect(throws: PolicyError.self) {
            try MergePolicy(schema: json(#"{"x-merge":{"lww":"t","future":"ignore"}}"#))
        }
        #expect(throws: PolicyError.self) {
            try MergePolicy(schema: json(#"{"x-merge":{"lww":"t","then":"u"}}"#))
        }
    }
}
