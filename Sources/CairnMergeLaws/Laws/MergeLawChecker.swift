import CairnMerge

/// The shared law checker: runs a merge on given or generated sides and returns every law
/// it breaks (``MergeLaw``), each shrunk to a minimal counter-example on request — the
/// conformance checker each policy, each kind of document of a set, and an app's own merge
/// code can be run through.
///
/// By design `counter` is not idempotent (two equal increments are two increments), and
/// `append-only` keeps its base against any change: for it identity and idempotence are
/// checked only where the base is absent (creations) or the side is the base unchanged (so
/// `merge(x, x, x) == x` holds for every policy).
public struct MergeLawChecker: Sendable {
    /// A merge of three sides, any of them absent.
    public typealias Merge = @Sendable (_ base: JSONValue?, _ ours: JSONValue?, _ theirs: JSONValue?) -> MergeOutcome

    /// The name violations carry.
    public var name: String
    /// Whether the base is kept against any change (append-only).
    public var keepsBase: Bool
    /// Whether the same change on both sides merges to it (all but counter).
    public var idempotent: Bool
    let merge: Merge

    /// Checks any merge function (``MergePolicy`` or not).
    public init(name: String, keepsBase: Bool = false, idempotent: Bool = true, merge: @escaping Merge) {
        self.name = name
        self.keepsBase = keepsBase
        self.idempotent = idempotent
        self.merge = merge
    }

    /// Checks one policy; `context` holds the merging device's clock for policies that read it.
    public init(policy: MergePolicy, context: MergeContext = MergeContext()) {
        self.init(name: policy.name.rawValue, keepsBase: policy.isAppendOnly, idempotent: !policy.countsIncrements) { base, ours, theirs in
            policy.merge(base: base, ours: ours, theirs: theirs, context: context)
        }
    }

    /// Checks the whole-document merge of the documents at `path` (``SchemaSet/merge(_:base:ours:theirs:context:)``:
    /// the kind's policy tree, its derived fields computed again).
    public init(set: SchemaSet, path: DocumentPath) {
        let policy = set.policy(for: path)
        let name = set.kind(of: path).map { "\($0.pattern)" } ?? path.description
        self.init(name: name, keepsBase: policy.isAppendOnly, idempotent: !policy.countsIncrements) { base, ours, theirs in
            set.merge(path, base: base, ours: ours, theirs: theirs)
        }
    }

    /// Every law `sides` breaks: symmetry; then, for each side that changed, identity and
    /// idempotence (with the exceptions above). Each violation names the sides actually merged.
    public func violations(of sides: LawCase) -> [LawViolation] {
        var found: [LawViolation] = []
        let forward = merge(sides.base, sides.ours, sides.theirs)
        let backward = merge(sides.base, sides.theirs, sides.ours)
        if Self.fingerprint(forward) != Self.fingerprint(backward) {
            let pointer =
                JSONDifference.between(expected: forward.value, found: backward.value).first?.pointer
                ?? zip(forward.conflicts, backward.conflicts).first { $0 != $1 }?.0.pointer
                ?? (forward.conflicts + backward.conflicts).first?.pointer ?? ""
            found.append(LawViolation(policy: name, law: .symmetry, pointer: pointer, sides: sides, forward: forward, backward: backward))
        }
        for changed in [sides.ours, sides.theirs] {
            if keepsBase, sides.base != nil, !JSONValue.same(changed, sides.base) { continue }
            let identity = LawCase(base: sides.base, ours: sides.base, theirs: changed)
            let outcomes = (merge(identity.base, identity.ours, identity.theirs), merge(identity.base, identity.theirs, identity.ours))
            for outcome in [outcomes.0, outcomes.1] where !Self.gives(outcome, changed) {
                found.append(
                    LawViolation(
                        policy: name, law: .identity, pointer: Self.pointer(outcome, changed),
                        sides: identity, forward: outcomes.0, backward: outcomes.1))
                break
            }
            guard idempotent else { continue }
            let twice = merge(sides.base, changed, changed)
            if !Self.gives(twice, changed) {
                found.append(
                    LawViolation(
                        policy: name, law: .idempotence, pointer: Self.pointer(twice, changed),
                        sides: LawCase(base: sides.base, ours: changed, theirs: changed),
                        forward: twice, backward: twice))
            }
        }
        return found
    }

    /// Runs `count` cases drawn by `generate` from `seed` and returns the violations found,
    /// at most `limit` (each with its case's number), unshrunk.
    public func check(
        cases count: Int, seed: UInt64, limit: Int = 3,
        _ generate: (inout SplitMix) throws -> LawCase
    ) rethrows -> [LawViolation] {
        var random = SplitMix(seed: seed)
        var found: [LawViolation] = []
        for number in 0..<count where found.count < limit {
            for var violation in violations(of: try generate(&random)).prefix(limit - found.count) {
                violation.caseNumber = number
                found.append(violation)
            }
        }
        return found
    }

    /// Whether an outcome is `value`, with no record.
    static func gives(_ outcome: MergeOutcome, _ value: JSONValue?) -> Bool {
        JSONValue.same(outcome.value, value) && outcome.conflicts.isEmpty
    }

    static func pointer(_ outcome: MergeOutcome, _ wanted: JSONValue?) -> String {
        JSONDifference.between(expected: outcome.value, found: wanted).first?.pointer ?? outcome.conflicts.first?.pointer ?? ""
    }

    /// An outcome as bytes: its value and records, so equal means the same bytes, not
    /// merely equal Swift strings.
    public static func fingerprint(_ outcome: MergeOutcome) -> [UInt8] {
        var bytes = outcome.value?.canonicalBytes() ?? Array("(absent)".utf8)
        for record in outcome.conflicts {
            bytes += Array("|\(record.document?.description ?? "")|\(record.pointer)|\(record.policy)|".utf8)
            bytes += record.kept?.canonicalBytes() ?? [0]
            bytes += record.replaced?.canonicalBytes() ?? [0]
            bytes += Array("|\(record.note ?? "")".utf8)
        }
        return bytes
    }
}
