import CairnMerge

/// The code that reads what others wrote, each as one fuzz target: a function of arbitrary
/// bytes that must never crash and checks, with ``Invariant/require(_:_:)``, what the code
/// promises about every input it accepts.
///
/// `scripts/fuzz.sh TARGET` runs one under libFuzzer; the seed corpus of each target
/// (`Tests/Fuzz/Corpus/<target>/`) is replayed by the tests.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The strict JSON parser and canonical JSON (``JSONFuzzing``).
    case json
    /// Document and collection paths, IDs and their collisions (``PathFuzzing``).
    case paths
    /// What a fetched tree may hold (``StoreTreeFuzzing``).
    case storeTree
    /// A schema file read as a schema set, its policies, validation and merge (``SchemaSetFuzzing``).
    case schemaSet
    /// One target per merge policy (``MergeFuzzing``).
    case fields, lww, highest, entriesLatest, appendOnly, appendOnlyLatest, counter, max, min, union

    /// Runs the target on one input; a broken invariant stops the process.
    public func run(_ input: [UInt8]) {
        switch self {
        case .json: JSONFuzzing.run(input)
        case .paths: PathFuzzing.run(input)
        case .storeTree: StoreTreeFuzzing.run(input)
        case .schemaSet: SchemaSetFuzzing.run(input)
        default: MergeFuzzing.run(policies, input)
        }
    }

    /// The policies a merge target checks: the policy alone, and where it takes policies for
    /// some keys, a nested form. Side-picking policies compare the field `t` (and `v`).
    public var policies: [MergePolicy] {
        switch self {
        case .json, .paths, .storeTree, .schemaSet: []
        case .fields:
            [
                .plain, .fields(["n": .counter, "m": .max, "u": .union, "a": .appendOnly], others: nil),
                .fields([:], others: .max),
            ]
        case .lww: [.lww("t", children: [:]), .lww("t", children: ["n": .counter, "u": .union, "f": .plain])]
        case .highest:
            [
                .highest("v", then: "t", children: [:]), .highest("v", then: nil, children: [:]),
                .highest("v", then: "t", children: ["n": .counter, "m": .min]),
            ]
        case .entriesLatest: [.entriesLatest(by: "t")]
        case .appendOnly: [.appendOnly]
        case .appendOnlyLatest: [.appendOnlyLatest(by: "t")]
        case .counter: [.counter]
        case .max: [.max]
        case .min: [.min]
        case .union: [.union]
        }
    }
}
