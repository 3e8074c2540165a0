import CairnMerge

/// A merge policy on arbitrary sides (``MergeInput``).
///
/// The laws of every policy (DESIGN §3): deterministic and symmetric to the byte, records
/// included; `merge(x, x, x) == x`; identity, `merge(b, b, x) == x`; idempotence,
/// `merge(b, x, x) == x` — but for `counter` (two equal increments are two) and, once the
/// base exists, `append-only` (it keeps the base). Then what each policy promises of its
/// result (``MergeResultCheck``), and that the result writes as canonical text that reads back.
public enum MergeFuzzing {
    public static func run(_ policies: [MergePolicy], _ input: [UInt8]) {
        guard let sides = MergeInput(MergeInput.lines(input)[...]) else { return }
        for policy in policies { check(policy, sides) }
    }

    public static func check(_ policy: MergePolicy, _ sides: MergeInput) {
        let (base, ours, theirs) = (sides.base, sides.ours, sides.theirs)
        let forward = policy.merge(base: base, ours: ours, theirs: theirs)
        let name = policy.name
        Invariant.require(fingerprint(forward) == fingerprint(policy.merge(base: base, ours: ours, theirs: theirs)),
                          "\(name) is not deterministic")
        Invariant.require(fingerprint(forward) == fingerprint(policy.merge(base: base, ours: theirs, theirs: ours)),
                          "\(name) is not symmetric")
        Invariant.require(forward.conflicts == forward.conflicts.sorted(), "\(name) records are not sorted")
        for value in [base, ours, theirs] {
            let unchanged = policy.merge(base: value, ours: value, theirs: value)
            Invariant.require(JSONValue.same(unchanged.value, value) && unchanged.conflicts.isEmpty,
                              "\(name): merge(x, x, x) is not x")
        }
        let keepsBase = policy.isAppendOnly && base != nil
        for changed in [ours, theirs] where !keepsBase {
            for outcome in [policy.merge(base: base, ours: base, theirs: changed),
                            policy.merge(base: base, ours: changed, theirs: base)] {
                Invariant.require(JSONValue.same(outcome.value, changed) && outcome.conflicts.isEmpty,
                                  "\(name) breaks identity")
            }
            if !policy.countsIncrements {
                let twice = policy.merge(base: base, ours: changed, theirs: changed)
                Invariant.require(JSONValue.same(twice.value, changed) && twice.conflicts.isEmpty,
                                  "\(name) is not idempotent")
            }
        }
        MergeResultCheck(policy: policy, sides: sides, result: forward.value).check()
        if let value = forward.value {
            let canonical = value.canonicalBytes()
            let again = try? JSONParser(limits: JSONLimits(maxBytes: Int.max, maxDepth: 1_000)).parse(canonical)
            Invariant.require(again.map { JSONValue.same($0, value) } ?? false, "\(name): the result does not read back")
        }
    }

    /// An outcome as bytes: its value and records, so equal means the same bytes (the law
    /// checker's).
    public static func fingerprint(_ outcome: MergeOutcome) -> [UInt8] {
        MergeLawChecker.fingerprint(outcome)
    }
}
