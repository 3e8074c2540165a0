import CairnMerge

extension CaseResult {
    /// The result as `cairn test --json` prints it: `name`, `file`, `kind`, `passed`,
    /// `seconds`, and `failure` (null for a pass): `message`, `summary` (the one line),
    /// `pointer`, `step` and `stepDescription` (each null when not known), and `differences`
    /// (`pointer`, `expected`, `found`; an absent value left out, as it differs from `null`).
    public var jsonValue: JSONValue {
        var fields: JSONObject = [
            "name": .string(name), "file": .string(file), "kind": .string(kind.rawValue),
            "passed": .bool(passed), "seconds": .double((seconds * 1_000).rounded() / 1_000), "failure": .null,
        ]
        if let failure {
            fields["failure"] = .object([
                "message": .string(failure.message), "summary": .string(failure.summary),
                "pointer": failure.pointer.map { .string($0) } ?? .null,
                "step": failure.step.map { .integer(Int64($0)) } ?? .null,
                "stepDescription": failure.stepDescription.map { .string($0) } ?? .null,
                "differences": .array(
                    failure.differences.map { difference in
                        var entry: JSONObject = ["pointer": .string(difference.pointer)]
                        if let expected = difference.expected { entry["expected"] = expected }
                        if let found = difference.found { entry["found"] = found }
                        return .object(entry)
                    }),
            ])
        }
        return .object(fields)
    }
}
