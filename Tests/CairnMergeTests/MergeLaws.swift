import CairnFuzzing
import CairnMerge
import CairnTestSupport
import Testing

/// The laws every merge policy keeps, checked over generated cases — the shared checker each
/// policy's tests run, as collection types run a shared conformance checker.
///
/// - symmetric to the byte: `merge(b, x, y)` and `merge(b, y, x)` give the same bytes and the
///   same records;
/// - identity: `merge(b, b, x) == x` and `merge(b, x, b) == x`, with no record;
/// - idempotent: `merge(b, x, x) == x`, with no record.
///
/// By design `counter` is not idempotent (two equal increments are two increments) and
/// `append-only` keeps its base against any change (identity and idempotence hold only where
/// the base is absent: creations).
enum MergeLaws {
    struct Case {
        var base: JSONValue?
        var ours: JSONValue?
        var theirs: JSONValue?
    }

    /// The records of an outcome as bytes, so equal means the same bytes, not merely equal
    /// Swift strings.
    static func fingerprint(_ outcome: MergeOutcome) -> [UInt8] {
        MergeFuzzing.fingerprint(outcome)
    }

    /// `context`: the merging device's clock, for policies that read it.
    static func check(
        _ policy: MergePolicy, cases count: Int = 3_000, seed: UInt64, context: MergeContext = MergeContext(),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ generate: (inout SplitMix) -> Case
    ) {
        var generator = SplitMix(seed: seed)
        var failures = 0
        for number in 0..<count where failures < 3 {
            let sample = generate(&generator)
            let forward = policy.merge(base: sample.base, ours: sample.ours, theirs: sample.theirs, context: context)
            let backward = policy.merge(base: sample.base, ours: sample.theirs, theirs: sample.ours, context: context)
            if fingerprint(forward) != fingerprint(backward) {
                failures += 1
                Issue.record("\(policy.name) not symmetric, case \(number) of seed \(seed): \(sample)", sourceLocation: sourceLocation)
            }
            let keepsBase = policy.isAppendOnly && sample.base != nil
            for changed in [sample.ours, sample.theirs] where !keepsBase {
                for outcome in [policy.merge(base: sample.base, ours: sample.base, theirs: changed, context: context),
                                policy.merge(base: sample.base, ours: changed, theirs: sample.base, context: context)] {
                    if !JSONValue.same(outcome.value, changed) || !outcome.conflicts.isEmpty {
                        failures += 1
                        Issue.record("\(policy.name) breaks identity, case \(number) of seed \(seed): \(sample) gave \(outcome)", sourceLocation: sourceLocation)
                    }
                }
                if policy != .counter {
                    let twice = policy.merge(base: sample.base, ours: changed, theirs: changed, context: context)
                    if !JSONValue.same(twice.value, changed) || !twice.conflicts.isEmpty {
                        failures += 1
                        Issue.record("\(policy.name) not idempotent, case \(number) of seed \(seed): \(sample) gave \(twice)", sourceLocation: sourceLocation)
                    }
                }
            }
        }
    }
}

/// Small random values for the merge laws: few keys and few values, so sides collide often.
enum MergeSamples {
    static func pick<T>(_ choices: [T], _ generator: inout SplitMix) -> T {
        choices[Int.random(in: 0..<choices.count, using: &generator)]
    }

    static func scalar(_ generator: inout SplitMix) -> JSONValue {
        pick([.null, .bool(true), .bool(false), .integer(0), .integer(7), .integer(-3), .double(2.5),
              .string("a"), .string("é"), .string("e\u{301}"), .double(-0.0), .double(0.0)], &generator)
    }

    static func value(_ generator: inout SplitMix, depth: Int = 2) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 5 : 3), using: &generator) {
        case 0, 1, 2: return scalar(&generator)
        case 3: return .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in scalar(&generator) })
        default: return object(&generator, depth: depth - 1)
        }
    }

    static func object(_ generator: inout SplitMix, depth: Int = 2, keys: [String] = ["a", "b", "c", "d/e", "~"]) -> JSONValue {
        var fields: [String: JSONValue] = [:]
        for key in keys where Bool.random(using: &generator) {
            fields[key] = value(&generator, depth: depth)
        }
        return .object(fields)
    }

    /// A change of `value`: sometimes none, sometimes deleted, else a few keys redrawn.
    static func change(_ value: JSONValue?, _ generator: inout SplitMix, redraw: (inout SplitMix) -> JSONValue) -> JSONValue? {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0, 1: return value
        case 2: return nil
        case 3, 4, 5: return redraw(&generator)
        default:
            guard case .object(var fields)? = value, case .object(let fresh) = redraw(&generator) else { return redraw(&generator) }
            for (key, replacement) in fresh where Bool.random(using: &generator) { fields[key] = replacement }
            if let key = fields.keys.sorted().first, Bool.random(using: &generator) { fields[key] = nil }
            return .object(fields)
        }
    }

    /// A case whose sides are changes of a base drawn by `draw`.
    static func sample(_ generator: inout SplitMix, draw: (inout SplitMix) -> JSONValue) -> MergeLaws.Case {
        let base: JSONValue? = Int.random(in: 0..<5, using: &generator) == 0 ? nil : draw(&generator)
        return MergeLaws.Case(base: base, ours: change(base, &generator, redraw: draw),
                              theirs: change(base, &generator, redraw: draw))
    }
}
