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
            if a.isSame(as: b) { return 0 }
            let first = a.canonicalBytes()
            let second = b.canonicalBytes()
            if first == second { return 0 }
            return first.lexicographicallyPrecedes(second) ? -1 : 1
        }
    }

    /// Whether two values (either may be absent) are the same bytes in canonical form.
    ///
    /// Compared value by value, without writing either: strings and keys by their UTF-8
    /// bytes (Swift's `==` would equate "é" and "e\u{301}", which are different bytes), doubles
    /// by their bits (0.0 and -0.0 are written differently), integers and doubles never
    /// equal (`1` and `1.0` are written differently).
    public static func same(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (let a?, let b?): return a.isSame(as: b)
        }
    }

    private func isSame(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): return a.utf8.elementsEqual(b.utf8)
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.isSame(as: $1) }
        case (.object(let a), .object(let b)):
            // Both in canonical order: the same bytes are the same keys, one by one.
            guard a.count == b.count else { return false }
            for index in a.indices {
                let (left, right) = (a[index], b[index])
                guard JSONObject.sameBytes(left.key, right.key), left.value.isSame(as: right.value) else { return false }
            }
            return true
        default:
            return false
        }
    }

    /// Compares two values as a version or a time stamp: numbers by value, strings (ISO 8601
    /// stamps compare correctly as text) by their bytes; anything else, or two values of
    /// different kinds, by canonical order. Absent and `null` (a stamp not set yet) are
    /// smallest.
    package static func stampOrder(_ left: JSONValue?, _ right: JSONValue?) -> Int {
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
