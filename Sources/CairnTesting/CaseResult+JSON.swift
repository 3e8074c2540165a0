import CairnMerge

extension CaseResult {
    /// The result as `cairn test --json` prints it: `name`, `file`, `kind`, `passed`,
    /// `seconds`, and for a failure `failure`: `message`, `summary` (the one line), and
    /// `pointer`, `step`, `stepDescription` and `differences` (`pointer`, `expected`,
    /// `found`; an absent value left out) when known.
    public var jsonValue: JSONValue {
        var fields: [String: JSONValue] = [
            "name": .string(name), "file": .string(file), "kind": .string(kind.rawValue),
            "passed": .bool(passed), "seconds": .double((seconds * 1_000).rounded() / 1_000),
        ]
        if let failure {
            var details: [String: JSONValue] = ["message": .string(failure.message), "summary": .string(failure.summary)]
            if let pointer = failure.pointer { details["pointer"] = .string(pointer) }
            if let step = failure.step { details["step"] = .integer(Int64(step)) }
            if let what = failure.stepDescription { details["stepDescription"] = .string(what) }
            details["differences"] = .array(failure.differences.map { difference in
                var entry: [String: JSONValue] = ["pointer": .string(difference.pointer)]
                if let expected = difference.expected { entry["expected"] = expected }
                if let found = difference.found { entry["found"] = found }
                return .object(entry)
            })
            fields["failure"] = .object(details)
        }
        return .object(fields)
    }
}
