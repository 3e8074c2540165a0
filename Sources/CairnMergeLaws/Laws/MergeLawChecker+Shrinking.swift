import CairnMerge

extension MergeLawChecker {
    /// `violation` made as small as it goes while the merge still breaks the same law: keys
    /// dropped (from all sides at once, then from one), array elements dropped, sides made
    /// absent, scalars made simpler (`""`, `0`, `false`), one step at a time until no step
    /// keeps the violation, or `budget` cases were tried.
    public func shrink(_ violation: LawViolation, budget: Int = 4_000) -> LawViolation {
        var best = violation
        best.caseNumber = nil
        var tried = 0
        var improved = true
        while improved, tried < budget {
            improved = false
            for candidate in Self.candidates(best.sides) {
                tried += 1
                if let found = violations(of: candidate).first(where: { $0.law == violation.law }) {
                    best = found
                    improved = true
                    break
                }
                if tried >= budget { break }
            }
        }
        return best
    }

    /// Smaller cases than `sides`, the biggest steps first.
    static func candidates(_ sides: LawCase) -> [LawCase] {
        var result: [LawCase] = []
        let values = [sides.base, sides.ours, sides.theirs]
        // A key dropped from every side that has it.
        var keys = Set<String>()
        for case .object(let fields)? in values { keys.formUnion(fields.keys) }
        for key in keys.sorted() {
            let dropped = values.map { value -> JSONValue? in
                guard case .object(var fields)? = value else { return value }
                fields[key] = nil
                return .object(fields)
            }
            result.append(LawCase(base: dropped[0], ours: dropped[1], theirs: dropped[2]))
        }
        for (index, value) in values.enumerated() {
            guard let value else { continue }
            var sides = values
            sides[index] = nil
            result.append(LawCase(base: sides[0], ours: sides[1], theirs: sides[2]))
            for smaller in smaller(value) {
                sides[index] = smaller
                result.append(LawCase(base: sides[0], ours: sides[1], theirs: sides[2]))
            }
        }
        return result
    }

    /// Values one step simpler than `value`.
    static func smaller(_ value: JSONValue) -> [JSONValue] {
        switch value {
        case .object(let fields):
            let keys = JSONValue.sortedKeys(fields)
            var result = keys.map { key in JSONValue.object(fields.filter { $0.key != key }) }
            for key in keys {
                for simpler in smaller(fields[key]!) {
                    var changed = fields
                    changed[key] = simpler
                    result.append(.object(changed))
                }
            }
            return result
        case .array(let elements):
            var result = elements.indices.map { index in JSONValue.array(elements.enumerated().filter { $0.offset != index }.map(\.element))
            }
            for index in elements.indices {
                for simpler in smaller(elements[index]) {
                    var changed = elements
                    changed[index] = simpler
                    result.append(.array(changed))
                }
            }
            return result
        case .string(let text):
            guard !text.isEmpty else { return [] }
            return text.count > 1 ? [.string(""), .string(String(text.prefix(text.count / 2)))] : [.string("")]
        case .integer(let number):
            guard number != 0 else { return [] }
            return number / 2 != 0 ? [.integer(0), .integer(number / 2)] : [.integer(0)]
        case .double(let number):
            return number.bitPattern == 0 ? [] : [.double(0)]
        case .bool(let flag):
            return flag ? [.bool(false)] : []
        case .null:
            return []
        }
    }
}
