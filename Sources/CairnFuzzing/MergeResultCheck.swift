import CairnMerge

/// What each policy promises of the value it merged, beyond the laws: the result is one the
/// sides allowed.
struct MergeResultCheck {
    let policy: MergePolicy
    let sides: MergeInput
    let result: JSONValue?

    /// Both sides present and changed from the base, differently: the case a policy decides.
    var bothChanged: (JSONValue, JSONValue)? {
        guard let ours = sides.ours, let theirs = sides.theirs, !JSONValue.same(ours, theirs),
            !JSONValue.same(ours, sides.base), !JSONValue.same(theirs, sides.base)
        else { return nil }
        return (ours, theirs)
    }

    func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        Invariant.require(condition, "\(policy.name): " + message())
    }

    func check() {
        switch policy {
        case .appendOnly, .appendOnlyLatest:
            if let base = sides.base {
                require(JSONValue.same(result, base), "an existing document changed")
            } else {
                require(isOneOf(result, [sides.ours, sides.theirs]), "a created document that neither side created")
            }
        case .counter:
            checkCounter()
        case .max, .min:
            checkExtreme(greatest: policy == .max)
        case .union:
            checkUnion()
        case .lww(let field, let children, _):
            checkSidePicked(children: children) { Self.integerOrder($0.field(field), $1.field(field)) }
        case .highest(let field, let then, let children):
            checkSidePicked(children: children) { ours, theirs in
                let order = Self.integerOrder(ours.field(field), theirs.field(field))
                guard order == 0, let then else { return order }
                return JSONValue.same(ours.field(field), theirs.field(field)) ? Self.integerOrder(ours.field(then), theirs.field(then)) : 0
            }
        case .entriesLatest:
            checkKeys { key, base, ours, theirs, merged in
                require(isOneOf(merged, [base, ours, theirs]), "entry \(key) is none of the sides' entries")
            }
        case .fields(let children, let others):
            checkKeys { key, base, ours, theirs, merged in
                guard !(children[key] ?? others ?? .plain).isAppendOnly else { return }
                if JSONValue.same(ours, base) { require(JSONValue.same(merged, theirs), "key \(key) changed on one side lost the change") }
                if JSONValue.same(theirs, base) { require(JSONValue.same(merged, ours), "key \(key) changed on one side lost the change") }
            }
        }
    }

    func isOneOf(_ value: JSONValue?, _ choices: [JSONValue?]) -> Bool {
        choices.contains { JSONValue.same($0, value) }
    }

    /// Two integers' order (1: the first is greater), 0 when either is not an integer.
    static func integerOrder(_ first: JSONValue?, _ second: JSONValue?) -> Int {
        guard case .integer(let x)? = first, case .integer(let y)? = second else { return 0 }
        return x == y ? 0 : (x > y ? 1 : -1)
    }

    func checkCounter() {
        guard case .integer(let ours)? = sides.ours, case .integer(let theirs)? = sides.theirs else { return }
        let start: Int64
        switch sides.base {
        case nil: start = 0
        case .integer(let value)?: start = value
        default: return
        }
        let (partial, first) = ours.addingReportingOverflow(theirs)
        let (sum, second) = partial.subtractingReportingOverflow(start)
        guard !first, !second else { return }
        require(result == .integer(sum), "\(ours) + \(theirs) − \(start) gave \(String(describing: result))")
    }

    func checkExtreme(greatest: Bool) {
        guard let (ours, theirs) = bothChanged else { return }
        require(isOneOf(result, [ours, theirs]), "the result is neither side")
        let order: Int
        switch (ours, theirs) {
        case (.integer(let x), .integer(let y)): order = x == y ? 0 : (x > y ? 1 : -1)
        case (.double(let x), .double(let y)): order = x == y ? 0 : (x > y ? 1 : -1)
        case (.string(let x), .string(let y)):
            order = x.utf8.elementsEqual(y.utf8) ? 0 : (y.utf8.lexicographicallyPrecedes(x.utf8) ? 1 : -1)
        default: return
        }
        guard order != 0 else { return }
        let expected = (order > 0) == greatest ? ours : theirs
        require(JSONValue.same(result, expected), "kept the \(greatest ? "smaller" : "greater") value")
    }

    func checkUnion() {
        guard let (ours, theirs) = bothChanged, case .array(let x) = ours, case .array(let y) = theirs else { return }
        guard case .array(let merged)? = result else { return require(false, "two arrays merged into no array") }
        var base: [JSONValue] = []
        if case .array(let elements)? = sides.base { base = elements }
        let keys = merged.map { $0.canonicalBytes() }
        require(
            zip(keys, keys.dropFirst()).allSatisfy { $0.lexicographicallyPrecedes($1) },
            "elements not in canonical order, or repeated")
        let (inBase, inOurs, inTheirs) = (
            Set(base.map { $0.canonicalBytes() }), Set(x.map { $0.canonicalBytes() }),
            Set(y.map { $0.canonicalBytes() })
        )
        let expected = inOurs.union(inTheirs).filter { !inBase.contains($0) || (inOurs.contains($0) && inTheirs.contains($0)) }
        require(Set(keys) == expected, "not what either side added, less what either removed")
    }

    /// `lww` and `highest`: the whole value of the side `order` prefers (1: ours) when it
    /// prefers one; keys with policies of their own are merged, not taken.
    func checkSidePicked(children: [String: MergePolicy], order: (JSONValue, JSONValue) -> Int) {
        guard let (ours, theirs) = bothChanged else { return }
        if children.isEmpty {
            require(isOneOf(result, [ours, theirs]), "the result is neither side")
        }
        let preference = order(ours, theirs)
        guard preference != 0 else { return }
        let winner = preference > 0 ? ours : theirs
        guard children.isEmpty == false, case .object(let won) = winner, case .object = (preference > 0 ? theirs : ours) else {
            return require(JSONValue.same(result, winner), "did not keep the side with the greater stamp")
        }
        guard case .object(let fields)? = result else { return require(false, "two objects merged into no object") }
        for key in Set(won.keys).union(fields.keys) where children[key] == nil {
            require(JSONValue.same(fields[key], won[key]), "key \(key) is not the winning side's")
        }
    }

    /// Objects merged key by key: no key the sides lacked, and `check` for each key.
    func checkKeys(_ check: (String, JSONValue?, JSONValue?, JSONValue?, JSONValue?) -> Void) {
        guard let (ours, theirs) = bothChanged, case .object(let x) = ours, case .object(let y) = theirs else { return }
        guard case .object(let merged)? = result else { return require(false, "two objects merged into no object") }
        let base = sides.base?.objectValue ?? [:]
        let keys = Set(x.keys).union(y.keys).union(base.keys)
        require(Set(merged.keys).isSubset(of: keys), "a key none of the sides had")
        for key in keys { check(key, base[key], x[key], y[key], merged[key]) }
    }
}
