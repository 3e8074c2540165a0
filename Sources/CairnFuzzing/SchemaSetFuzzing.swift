import CairnMerge
import CairnMergeLaws

/// A schema file read as a schema set, on arbitrary input: the first line is the schema, the
/// next three the sides of a merge (``MergeInput``).
///
/// Reading the schema is deterministic and gives the policy ``MergePolicy/init(schema:)``
/// reads; the kind's policy keeps the laws of every policy (``MergeFuzzing``); the set's merge
/// of a document of the kind is symmetric, names the document in its records, and validating
/// any side or the result never fails to answer.
///
/// Only values whose strings and keys are short are validated: `pattern` runs on Swift's
/// `Regex`, a backtracking engine, and a pattern such as `(a|aa)+$` takes seconds on a few
/// dozen characters — a known cost, not a crash, which would otherwise stop the fuzzer.
public enum SchemaSetFuzzing {
    /// The longest string or key a validated value holds, in UTF-8 bytes.
    static let longestValidatedText = 12

    public static func run(_ input: [UInt8]) {
        let lines = MergeInput.lines(input)
        guard let schemaLine = lines.first else { return }
        let parser = JSONParser(limits: MergeInput.limits)
        guard let schema = try? parser.parse(schemaLine) else { return }
        let direct = try? MergePolicy(schema: schema)
        Invariant.require(direct == (try? MergePolicy(schema: schema)), "reading a policy is not deterministic")
        let files = ["kind.schema.json": schemaLine]
        guard let set = try? SchemaSet(files: files), let kind = set.kinds.first else { return }
        Invariant.require(set.kinds.count == 1, "one schema file gave \(set.kinds.count) kinds")
        Invariant.require(direct == kind.policy, "the set's policy differs from the schema's")
        guard let sides = MergeInput(lines.dropFirst()) else { return }
        MergeFuzzing.check(kind.policy, sides)
        var values: [String: String] = [:]
        for name in kind.pattern.placeholders { values[name] = "x" }
        guard let path = kind.pattern.fill(values) else { return }
        Invariant.require(set.kind(of: path)?.file == kind.file, "the kind's own path is not of its kind")
        let forward = set.merge(path, base: sides.base, ours: sides.ours, theirs: sides.theirs)
        let backward = set.merge(path, base: sides.base, ours: sides.theirs, theirs: sides.ours)
        Invariant.require(MergeLawChecker.fingerprint(forward) == MergeLawChecker.fingerprint(backward), "the set's merge is not symmetric")
        Invariant.require(forward.conflicts.allSatisfy { $0.document == path }, "a record names another document")
        for value in [sides.base, sides.ours, sides.theirs, forward.value].compactMap({ $0 }) where isShort(value) {
            let first = set.validate(value, at: path).map(\.description)
            Invariant.require(first == set.validate(value, at: path).map(\.description), "validation is not deterministic")
        }
    }

    static func isShort(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): text.utf8.count <= longestValidatedText
        case .array(let elements): elements.allSatisfy(isShort)
        case .object(let fields): fields.allSatisfy { $0.key.utf8.count <= longestValidatedText && isShort($0.value) }
        default: true
        }
    }
}
