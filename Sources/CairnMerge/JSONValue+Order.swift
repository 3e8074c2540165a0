extension JSONValue {
    /// Compares two values by their canonical bytes (absent first): the one order in which
    /// merges break ties, so the result never depends on which side is "ours". Values that
    /// Swift considers equal but that are different bytes (NFC and NFD strings, `0.0` and
    /// `-0.0`) are different here.
    public static func canonicalOrder(_ left: JSONValue?, _ right: JSONValue?) -> Int {
        switch (left, right) {
        case (nil, nil): return 0
        case (nil, _): return -1
        case (_, nil): return 1
        case (let a?, let b?):
            let first = a.canonicalBytes()
            let second = b.canonicalBytes()
            if first == second { return 0 }
            return first.lexicographicallyPrecedes(second) ? -1 : 1
        }
    }

    /// Whether two values (either may be absent) are the same bytes in canonical form.
    public static func same(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        canonicalOrder(left, right) == 0
    }

    /// Compares two values as a version or a time stamp: numbers by value, strings (ISO 8601
    /// stamps compare correctly as text) by their bytes; anything else, or two values of
    /// different kinds, by canonical order. Absent and `null` (a stamp not set yet) are
    /// smallest.
    static func stampOrder(_ left: JSONValue?, _ right: JSONValue?) -> Int {
        let left = left == .null ? nil : left
        let right = right == .null ? nil : right
        switch (left, right) {
        case (.integer(let a)?, .integer(let b)?): return a == b ? 0 : (a < b ? -1 : 1)
        case (let a?, let b?):
            if let x = a.number, let y = b.number, x != y { return x < y ? -1 : 1 }
            if case .string(let x) = a, case .string(let y) = b, x.utf8.elementsEqual(y.utf8) == false {
                return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : 1
            }
            return canonicalOrder(a, b)
        default:
            return canonicalOrder(left, right)
        }
    }

    /// The value as a number, when it is one.
    public var number: Double? {
        switch self {
        case .integer(let integer): Double(integer)
        case .double(let double): double
        default: nil
        }
    }
}
