import CairnMerge
import CairnMergeLaws
import CairnTestSupport
import Testing

/// The laws every merge policy keeps, checked over generated cases by the product's shared
/// checker (``MergeLawChecker``: symmetric to the byte, identity, idempotence, with the
/// exceptions of `counter` and `append-only`); each violation becomes a test issue showing its
/// minimal counter-example.
enum MergeLaws {
    typealias Case = LawCase

    /// The records of an outcome as bytes, so equal means the same bytes, not merely equal
    /// Swift strings.
    static func fingerprint(_ outcome: MergeOutcome) -> [UInt8] {
        MergeLawChecker.fingerprint(outcome)
    }

    /// `context`: the merging device's clock, for policies that read it.
    static func check(
        _ policy: MergePolicy, cases count: Int = 3_000, seed: UInt64, context: MergeContext = MergeContext(),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ generate: (inout SplitMix) -> Case
    ) {
        let checker = MergeLawChecker(policy: policy, context: context)
        for violation in checker.check(cases: count, seed: seed, limit: 3, generate) {
            Issue.record(
                "case \(violation.caseNumber ?? -1) of seed \(seed), shrunk: \(checker.shrink(violation))",
                sourceLocation: sourceLocation)
        }
    }
}

/// Small random values for the merge laws: few keys and few values, so sides collide often.
enum MergeSamples {
    static func pick<T>(_ choices: [T], _ generator: inout SplitMix) -> T {
        choices[Int.random(in: 0..<choices.count, using: &generator)]
    }

    static func scalar(_ generator: inout SplitMix) -> JSONValue {
        pick(
            [
                .null, .bool(true), .bool(false), .integer(0), .integer(7), .integer(-3), .double(2.5),
                .string("a"), .string("é"), .string("e\u{301}"), .double(-0.0), .double(0.0),
            ], &generator)
    }

    static func value(_ generator: inout SplitMix, depth: Int = 2) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 5 : 3), using: &generator) {
        case 0, 1, 2: return scalar(&generator)
        case 3: return .array((0..<Int.random(in: 0...3, using: &generator)).map { _ in scalar(&generator) })
        default: return object(&generator, depth: depth - 1)
        }
    }

    static func object(_ generator: inout SplitMix, depth: Int = 2, keys: [String] = ["a", "b", "c", "d/e", "~"]) -> JSONValue {
        var fields: JSONObject = [:]
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
        return MergeLaws.Case(
            base: base, ours: change(base, &generator, redraw: draw),
            theirs: change(base, &generator, redraw: draw))
    }
}
