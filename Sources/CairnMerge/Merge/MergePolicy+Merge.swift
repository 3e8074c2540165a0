/// The value a merge produced (nil: absent) and what its policies decided on the way.
public struct MergeOutcome: Hashable, Sendable {
    public var value: JSONValue?
    /// Sorted (``ConflictRecord/<(_:_:)``), so equal merges give equal lists.
    public var conflicts: [ConflictRecord]

    public init(value: JSONValue?, conflicts: [ConflictRecord]) {
        self.value = value
        self.conflicts = conflicts
    }
}

extension MergePolicy {
    /// Merges `ours` and `theirs`, both changed from `base` (any of the three may be absent:
    /// created, deleted), as a whole document: the records' pointers start at its top.
    /// `context` holds the merging device's clock, when the merge has one.
    public func merge(
        base: JSONValue?, ours: JSONValue?, theirs: JSONValue?,
        context: MergeContext = MergeContext()
    ) -> MergeOutcome {
        var records: [ConflictRecord] = []
        let value = merge(base, ours, theirs, at: "", deciding: .byContent, in: context, into: &records)
        return MergeOutcome(value: value, conflicts: records.sorted())
    }

    /// How a conflict with no policy of its own is decided: by content, or for the side an
    /// enclosing `lww`/`highest` chose (first: the `ours` of this call).
    enum Decider: Equatable {
        case byContent
        case preferFirst(Bool)
    }

    func merge(
        _ base: JSONValue?, _ ours: JSONValue?, _ theirs: JSONValue?, at pointer: String,
        deciding decider: Decider, in context: MergeContext, into records: inout [ConflictRecord]
    ) -> JSONValue? {
        switch self {
        case .appendOnly, .appendOnlyLatest:
            return mergeAppendOnly(base, ours, theirs, at: pointer, into: &records)
        case .counter:
            if JSONValue.same(ours, base) { return theirs }
            if JSONValue.same(theirs, base) { return ours }
        default:
            // Equal sides are one change — unless a count inside was raised on both.
            if JSONValue.same(ours, theirs), !countsIncrements || ours == nil { return ours }
            if JSONValue.same(ours, base) { return theirs }
            if JSONValue.same(theirs, base) { return ours }
        }
        // Both sides changed the value, differently.
        guard let ours, let theirs else {
            // One side deleted it, the other changed it: the change is kept.
            let kept = ours ?? theirs
            records.append(ConflictRecord(pointer: pointer, policy: name, kept: kept, replaced: nil))
            return kept
        }
        switch self {
        case .fields(let children, let others):
            return mergeFields(
                base, ours, theirs, children: children, others: others, at: pointer,
                deciding: decider, in: context, into: &records)
        case .lww(let field, let children, let future):
            return mergeLatest(
                base, ours, theirs, by: field, future: future, children: children, at: pointer,
                in: context, into: &records)
        case .highest(let field, let then, let children):
            var order = JSONValue.stampOrder(ours.field(field), theirs.field(field))
            if order == 0, let then { order = JSONValue.stampOrder(ours.field(then), theirs.field(then)) }
            return mergeSides(
                base, ours, theirs, firstWins: Self.firstWins(order, ours, theirs),
                children: children, at: pointer, in: context, into: &records)
        case .entriesLatest(let field):
            return mergeEntries(base, ours, theirs, by: field, at: pointer, in: context, into: &records)
        case .counter:
            return mergeCounter(base, ours, theirs, at: pointer, into: &records)
        case .max, .min:
            // Numbers by value, time stamps (ISO 8601 text) by their text; equal values of
            // different forms (1 and 1.0) by content.
            let order = JSONValue.stampOrder(ours, theirs)
            let firstKept = self == .max ? order > 0 : order < 0
            let (kept, replaced) = firstKept ? (ours, theirs) : (theirs, ours)
            records.append(ConflictRecord(pointer: pointer, policy: name, kept: kept, replaced: replaced))
            return kept
        case .union:
            return mergeUnion(base, ours, theirs, at: pointer, deciding: decider, into: &records)
        case .appendOnly, .appendOnlyLatest:
            return nil  // handled above
        }
    }

    /// The side a comparison chose; a tie goes to content.
    static func firstWins(_ order: Int, _ first: JSONValue, _ second: JSONValue) -> Bool {
        order != 0 ? order > 0 : JSONValue.canonicalOrder(first, second) > 0
    }

    /// A conflict no policy below decides: the enclosing side-picker's side, else the greater
    /// value in canonical order. The other value is recorded.
    func decide(
        _ ours: JSONValue, _ theirs: JSONValue, at pointer: String, deciding decider: Decider,
        into records: inout [ConflictRecord]
    ) -> JSONValue {
        let firstKept: Bool
        switch decider {
        case .preferFirst(let first): firstKept = first
        case .byContent: firstKept = JSONValue.canonicalOrder(ours, theirs) > 0
        }
        let (kept, replaced) = firstKept ? (ours, theirs) : (theirs, ours)
        records.append(ConflictRecord(pointer: pointer, policy: name, kept: kept, replaced: replaced))
        return kept
    }

    private func mergeFields(
        _ base: JSONValue?, _ ours: JSONValue, _ theirs: JSONValue,
        children: [String: MergePolicy], others: MergePolicy?, at pointer: String,
        deciding decider: Decider, in context: MergeContext,
        into records: inout [ConflictRecord]
    ) -> JSONValue? {
        guard case .object(let oursFields) = ours, case .object(let theirsFields) = theirs else {
            return decide(ours, theirs, at: pointer, deciding: decider, into: &records)
        }
        var merged = JSONObject()
        for (key, values) in JSONObject.aligned(base?.objectValue ?? [:], oursFields, theirsFields) {
            let policy = (children.isEmpty ? nil : children[key]) ?? others ?? .plain
            let value = policy.merge(
                values.0, values.1, values.2,
                at: pointer + "/" + Self.escape(key), deciding: decider, in: context,
                into: &records)
            if let value { merged.append(value, forKey: key) }
        }
        return .object(merged)
    }

    /// `lww`: the side with the later stamp, ties by content. A stamp more than
    /// ``MergeClock/allowance`` ahead of the merging device's clock (``MergeContext/clock``)
    /// is named in the record (its note); with `.clamp` it counts as that clock, and the kept
    /// value carries the clock's time instead (integer stamps only).
    private func mergeLatest(
        _ base: JSONValue?, _ ours: JSONValue, _ theirs: JSONValue, by field: String,
        future: MergeClock.FutureStamps, children: [String: MergePolicy], at pointer: String,
        in context: MergeContext, into records: inout [ConflictRecord]
    ) -> JSONValue? {
        var (oursStamp, theirsStamp) = (ours.field(field), theirs.field(field))
        let leads = (context.lead(of: oursStamp), context.lead(of: theirsStamp))
        guard leads.0 != nil || leads.1 != nil else {
            let order = JSONValue.stampOrder(oursStamp, theirsStamp)
            return mergeSides(
                base, ours, theirs, firstWins: Self.firstWins(order, ours, theirs),
                children: children, at: pointer, in: context, into: &records)
        }
        var clamped: (JSONValue?, JSONValue?) = (nil, nil)
        if future == .clamp {
            if leads.0 != nil, let now = context.clamped(like: oursStamp) {
                clamped.0 = now
                oursStamp = now
            }
            if leads.1 != nil, let now = context.clamped(like: theirsStamp) {
                clamped.1 = now
                theirsStamp = now
            }
        }
        let firstWins = Self.firstWins(JSONValue.stampOrder(oursStamp, theirsStamp), ours, theirs)
        let start = records.count
        var merged = mergeSides(
            base, ours, theirs, firstWins: firstWins, children: children, at: pointer,
            in: context, into: &records)
        if let stamp = firstWins ? clamped.0 : clamped.1, case .object(var fields)? = merged {
            fields[field] = stamp
            merged = .object(fields)
        }
        var notes: [String] = []
        for (lead, clampedTo) in [(leads.0, clamped.0), (leads.1, clamped.1)] {
            guard let lead else { continue }
            let written = clampedTo.map { "; counted as " + $0.inlineText } ?? ""
            notes.append("a stamp \(MergeClock.describe(lead)) ahead of the merging device's clock\(written)")
        }
        // Sorted: the same note whichever side merges.
        let note = notes.sorted().joined(separator: "; ")
        if let index = records[start...].firstIndex(where: { $0.pointer == pointer }) {
            records[index].note = note
            records[index].kept = merged
        } else {
            records.append(
                ConflictRecord(
                    pointer: pointer, policy: name, kept: merged,
                    replaced: firstWins ? theirs : ours, note: note))
        }
        return merged
    }

    /// `lww` and `highest`: the winning side's whole value, but keys with a policy of their
    /// own merge by it, and conflicts below them go to the winning side.
    private func mergeSides(
        _ base: JSONValue?, _ ours: JSONValue, _ theirs: JSONValue, firstWins: Bool,
        children: [String: MergePolicy], at pointer: String,
        in context: MergeContext, into records: inout [ConflictRecord]
    ) -> JSONValue? {
        let (kept, replaced) = firstWins ? (ours, theirs) : (theirs, ours)
        guard !children.isEmpty, case .object(var result) = kept, case .object(let lost) = replaced else {
            records.append(ConflictRecord(pointer: pointer, policy: name, kept: kept, replaced: replaced))
            return kept
        }
        let baseFields = base?.objectValue ?? [:]
        var replacedByWinner = lost
        for (key, policy) in children {
            let value = policy.merge(
                baseFields[key], result[key], lost[key], at: pointer + "/" + Self.escape(key),
                deciding: .preferFirst(true), in: context, into: &records)
            result[key] = value
            replacedByWinner[key] = value
        }
        if !JSONValue.same(.object(replacedByWinner), .object(result)) {
            records.append(ConflictRecord(pointer: pointer, policy: name, kept: .object(result), replaced: replaced))
        }
        return .object(result)
    }

    private func mergeEntries(
        _ base: JSONValue?, _ ours: JSONValue, _ theirs: JSONValue, by field: String,
        at pointer: String, in context: MergeContext,
        into records: inout [ConflictRecord]
    ) -> JSONValue? {
        guard case .object(let oursEntries) = ours, case .object(let theirsEntries) = theirs else {
            return decide(ours, theirs, at: pointer, deciding: .byContent, into: &records)
        }
        let entry = MergePolicy.lww(field, children: [:])
        var merged = JSONObject()
        for (key, values) in JSONObject.aligned(base?.objectValue ?? [:], oursEntries, theirsEntries) {
            let value = entry.merge(
                values.0, values.1, values.2,
                at: pointer + "/" + Self.escape(key), deciding: .byContent, in: context,
                into: &records)
            if let value { merged.append(value, forKey: key) }
        }
        return .object(merged)
    }

    private func mergeCounter(
        _ base: JSONValue?, _ ours: JSONValue, _ theirs: JSONValue,
        at pointer: String, into records: inout [ConflictRecord]
    ) -> JSONValue? {
        let start: Int64
        switch base {
        case nil: start = 0
        case .integer(let value)?: start = value
        default: return decide(ours, theirs, at: pointer, deciding: .byContent, into: &records)
        }
        guard case .integer(let oursCount) = ours, case .integer(let theirsCount) = theirs else {
            return decide(ours, theirs, at: pointer, deciding: .byContent, into: &records)
        }
        // In 128 bits, so a sum that fits is found whatever the sides on the way (and the
        // same whichever side is ours); one that does not fit is decided by content.
        guard let sum = Int64(exactly: Int128(oursCount) + Int128(theirsCount) - Int128(start)) else {
            return decide(ours, theirs, at: pointer, deciding: .byContent, into: &records)
        }
        return .integer(sum)
    }

    private func mergeUnion(
        _ base: JSONValue?, _ ours: JSONValue, _ theirs: JSONValue, at pointer: String,
        deciding decider: Decider, into records: inout [ConflictRecord]
    ) -> JSONValue? {
        guard case .array(let oursElements) = ours, case .array(let theirsElements) = theirs else {
            return decide(ours, theirs, at: pointer, deciding: decider, into: &records)
        }
        let baseElements: [JSONValue]
        switch base {
        case .array(let elements)?: baseElements = elements
        default: baseElements = []
        }
        func keys(_ elements: [JSONValue]) -> [[UInt8]: JSONValue] {
            Dictionary(elements.map { ($0.canonicalBytes(), $0) }, uniquingKeysWith: { first, _ in first })
        }
        let (inBase, inOurs, inTheirs) = (keys(baseElements), keys(oursElements), keys(theirsElements))
        var result = inOurs.merging(inTheirs) { first, _ in first }
        for key in inBase.keys where inOurs[key] == nil || inTheirs[key] == nil {
            result[key] = nil
        }
        return .array(result.keys.sorted { $0.lexicographicallyPrecedes($1) }.map { result[$0]! })
    }

    private func mergeAppendOnly(
        _ base: JSONValue?, _ ours: JSONValue?, _ theirs: JSONValue?,
        at pointer: String, into records: inout [ConflictRecord]
    ) -> JSONValue? {
        guard let base else {
            guard let ours else { return theirs }
            guard let theirs else { return ours }
            if JSONValue.same(ours, theirs) { return ours }
            // Created on both sides with different content: the later by the policy's field,
            // or else the first in canonical order, stays.
            var oursFirst = JSONValue.canonicalOrder(ours, theirs) < 0
            if case .appendOnlyLatest(let field) = self, JSONValue.stampOrder(ours.field(field), theirs.field(field)) != 0 {
                oursFirst = JSONValue.stampOrder(ours.field(field), theirs.field(field)) > 0
            }
            let (kept, replaced) = oursFirst ? (ours, theirs) : (theirs, ours)
            records.append(ConflictRecord(pointer: pointer, policy: name, kept: kept, replaced: replaced))
            return kept
        }
        // Once created, never changed or deleted: each attempt is refused and recorded.
        var refused: [JSONValue?] = []
        for side in [ours, theirs] where !JSONValue.same(side, base) {
            if !refused.contains(where: { JSONValue.same($0, side) }) { refused.append(side) }
        }
        for side in refused {
            records.append(ConflictRecord(pointer: pointer, policy: name, kept: base, replaced: side))
        }
        return base
    }

    /// A key as a JSON pointer segment (RFC 6901): `~` as `~0`, `/` as `~1`. The one escape of
    /// pointers Cairn writes: merge records, validation findings, differences, scenario files.
    public static func escape(_ key: String) -> String {
        // Nearly every key has neither; the validator escapes every key it visits.
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}

extension String {
    /// Replaces every occurrence of `target`, without Foundation.
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard let first = target.utf8.first, utf8.contains(first), contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
