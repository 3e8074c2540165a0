/// One place where a value found differs from the value expected: its JSON pointer and the
/// two values there (nil: absent). Lists of them are the diffs failures show, one line each:
/// `/sections/s1/completed: expected true, found false`.
public struct JSONDifference: Hashable, Sendable, CustomStringConvertible {
    /// Where, as a JSON pointer (RFC 6901; empty for the whole value).
    public var pointer: String
    /// The value expected there; nil when it should be absent.
    public var expected: JSONValue?
    /// The value found there; nil when it is absent.
    public var found: JSONValue?

    public init(pointer: String, expected: JSONValue?, found: JSONValue?) {
        self.pointer = pointer
        self.expected = expected
        self.found = found
    }

    public var description: String {
        let place = pointer.isEmpty ? "/" : pointer
        switch (expected, found) {
        case (let expected?, nil): return "\(place): missing, expected \(Self.show(expected))"
        case (nil, let found?): return "\(place): unexpected, found \(Self.show(found))"
        default: return "\(place): expected \(Self.show(expected)), found \(Self.show(found))"
        }
    }

    /// A value on one line (canonical text, shortened past 200 characters).
    static func show(_ value: JSONValue?) -> String {
        value?.shortInlineText ?? "absent"
    }

    /// Where `found` differs from `expected`, deepest first reached: objects key by key (keys
    /// in canonical order), arrays of the same length element by element, anything else as a
    /// whole. With `subset`, only what `expected` names is compared: keys of objects that
    /// `expected` does not have are not differences, and an array is one value, equal as a
    /// whole or one difference (an element holding more than the one expected differs).
    public static func between(
        expected: JSONValue?, found: JSONValue?, subset: Bool = false,
        at pointer: String = ""
    ) -> [JSONDifference] {
        switch (expected, found) {
        case (.object(let want)?, .object(let have)?):
            var differences: [JSONDifference] = []
            let keys = subset ? Set(want.keys) : Set(want.keys).union(have.keys)
            for key in keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
                differences += between(
                    expected: want[key], found: have[key], subset: subset,
                    at: pointer + "/" + MergePolicy.escape(key))
            }
            return differences
        case (.array(let want)?, .array(let have)?) where want.count == have.count && !subset:
            return zip(want, have).enumerated().flatMap { index, pair in
                between(expected: pair.0, found: pair.1, subset: subset, at: pointer + "/\(index)")
            }
        default:
            if let expected, let found, JSONValue.same(expected, found) { return [] }
            if expected == nil, found == nil { return [] }
            return [JSONDifference(pointer: pointer, expected: expected, found: found)]
        }
    }
}
