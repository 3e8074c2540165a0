import CairnMerge
import CairnMergeLaws

/// A merge policy on arbitrary sides (``MergeInput``).
///
/// A policy is deterministic and writes its records sorted; it keeps the laws of every policy
/// (the Design article, *Policies*), checked by the shared ``MergeLawChecker`` — symmetric to the byte, records
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
        Invariant.require(
            MergeLawChecker.fingerprint(forward) == MergeLawChecker.fingerprint(policy.merge(base: base, ours: ours, theirs: theirs)),
            "\(name) is not deterministic")
        Invariant.require(forward.conflicts == forward.conflicts.sorted(), "\(name) records are not sorted")
        // The laws, by the shared checker: on the sides, and on each of them three times
        // (merge(x, x, x) == x).
        let checker = MergeLawChecker(policy: policy)
        for laws in [LawCase(base: base, ours: ours, theirs: theirs)]
            + [base, ours, theirs].map({ LawCase(base: $0, ours: $0, theirs: $0) })
        {
            let violations = checker.violations(of: laws)
            Invariant.require(violations.isEmpty, violations.map(\.description).joined(separator: "\n"))
        }
        MergeResultCheck(policy: policy, sides: sides, result: forward.value).check()
        if let value = forward.value {
            let canonical = value.canonicalBytes()
            let again = try? JSONParser(limits: JSONLimits(maxBytes: Int.max, maxDepth: 1_000)).parse(canonical)
            Invariant.require(again.map { JSONValue.same($0, value) } ?? false, "\(name): the result does not read back")
        }
    }
}
