/// The fields of a JSON object, kept in canonical order: keys sorted by their UTF-8 bytes, the
/// order in which ``JSONValue/canonicalBytes()`` writes them.
///
/// It reads and writes like a `[String: JSONValue]` (a dictionary literal makes one; a key's
/// subscript gets, sets and removes its value), with the lookup of a dictionary: a key is the
/// same key in any Unicode spelling Swift takes as equal (`"é"` and `"e\u{301}"`), and an
/// object holds one of them. Iterating it goes through the fields in canonical order.
///
/// Kept sorted instead of hashed: the documents Cairn merges are small objects read whole,
/// merged field by field and written whole in canonical order, and a sorted array is made
/// without hashing a key, merged as one walk of the sides' sorted keys and written as it is.
public struct JSONObject: Sendable {
    /// The fields, sorted by the UTF-8 bytes of their keys; no two keys equal as Swift
    /// compares strings.
    private var fields: [Field]
    /// Whether a key has (or had) a byte above 0x7F. Only then can a key be found under
    /// another spelling, so only then does a lookup that missed look again by Swift's equality.
    private(set) var hasNonASCIIKey: Bool

    struct Field: Sendable {
        var key: String
        var value: JSONValue
    }

    public init() {
        fields = []
        hasNonASCIIKey = false
    }

    /// An object of `pairs`, whose keys must be distinct (as a dictionary's must).
    public init<S: Sequence>(uniqueKeysWithValues pairs: S) where S.Element == (String, JSONValue) {
        self.init()
        for (key, value) in pairs {
            precondition(self[key] == nil, "duplicate key \(key) in JSONObject(uniqueKeysWithValues:)")
            self[key] = value
        }
    }

    /// The fields of a dictionary.
    public init(_ dictionary: [String: JSONValue]) {
        self.init(sortingDistinct: dictionary.map { Field(key: $0.key, value: $0.value) })
    }

    /// Fields whose keys are known to be distinct, in any order.
    init(sortingDistinct unsorted: [Field]) {
        fields = unsorted
        hasNonASCIIKey = unsorted.contains { !Self.isASCII($0.key) }
        if !Self.isSorted(fields) {
            fields.sort { Self.precedes($0.key, $1.key) }
        }
    }

    /// The fields a parser read, in the document's order: nil when two keys are the same key,
    /// with the position (in `fields`) of the second.
    static func parsed(_ read: [Field]) -> (object: JSONObject?, duplicate: Int?) {
        let nonASCII = read.contains { !isASCII($0.key) }
        if !nonASCII {
            // Canonical documents come sorted, and strictly sorted keys are distinct.
            if isSorted(read) {
                return (JSONObject(checkedFields: read, hasNonASCIIKey: false), nil)
            }
        }
        // A set of strings finds a key repeated in another spelling, as a dictionary does.
        var seen = Set<String>(minimumCapacity: read.count)
        for (index, field) in read.enumerated() where !seen.insert(field.key).inserted {
            return (nil, index)
        }
        return (JSONObject(sortingDistinct: read), nil)
    }

    /// Fields known to be sorted and distinct.
    init(checkedFields: [Field], hasNonASCIIKey: Bool) {
        fields = checkedFields
        self.hasNonASCIIKey = hasNonASCIIKey
    }

    // MARK: Lookup

    /// The value of `key`, nil when the object has no such key. Setting nil removes it.
    public subscript(key: String) -> JSONValue? {
        get {
            guard let index = index(of: key) else { return nil }
            return fields[index].value
        }
        set {
            if let index = index(of: key) {
                if let newValue {
                    fields[index].value = newValue
                } else {
                    fields.remove(at: index)
                }
            } else if let newValue {
                fields.insert(Field(key: key, value: newValue), at: insertionPoint(of: key))
                if !hasNonASCIIKey, !Self.isASCII(key) { hasNonASCIIKey = true }
            }
        }
    }

    /// The value of `key`, or `defaultValue`, as a dictionary's subscript with a default.
    public subscript(key: String, default defaultValue: @autoclosure () -> JSONValue) -> JSONValue {
        self[key] ?? defaultValue()
    }

    /// Adds a field whose key comes after every key of the object in canonical order (as when
    /// an object is built in that order), else sets it as the subscript does.
    public mutating func append(_ value: JSONValue, forKey key: String) {
        // A key in another spelling of one the object has is found by the subscript.
        guard !hasNonASCIIKey, Self.isASCII(key), fields.last.map({ Self.precedes($0.key, key) }) ?? true else {
            self[key] = value
            return
        }
        fields.append(Field(key: key, value: value))
    }

    /// Sets `value` for `key` and returns the value it replaced, as a dictionary's does.
    @discardableResult
    public mutating func updateValue(_ value: JSONValue, forKey key: String) -> JSONValue? {
        let old = self[key]
        self[key] = value
        return old
    }

    /// Removes `key` and returns its value.
    @discardableResult
    public mutating func removeValue(forKey key: String) -> JSONValue? {
        let old = self[key]
        self[key] = nil
        return old
    }

    /// The keys, in canonical order.
    public var keys: [String] { fields.map(\.key) }

    /// The values, in the canonical order of their keys.
    public var values: [JSONValue] { fields.map(\.value) }

    /// The key of the object in the spelling it holds, for `key` in any spelling.
    public func storedKey(for key: String) -> String? {
        index(of: key).map { fields[$0].key }
    }

    /// The object with each value transformed.
    public func mapValues(_ transform: (JSONValue) throws -> JSONValue) rethrows -> JSONObject {
        var copy = self
        for index in copy.fields.indices {
            copy.fields[index].value = try transform(copy.fields[index].value)
        }
        return copy
    }

    /// The object with each value transformed, without those transformed to nil.
    public func compactMapValues(_ transform: (JSONValue) throws -> JSONValue?) rethrows -> JSONObject {
        var copy = JSONObject()
        copy.hasNonASCIIKey = hasNonASCIIKey
        for field in fields {
            if let value = try transform(field.value) { copy.fields.append(Field(key: field.key, value: value)) }
        }
        return copy
    }

    /// The fields that satisfy `isIncluded`, as an object.
    public func filter(_ isIncluded: ((key: String, value: JSONValue)) throws -> Bool) rethrows -> JSONObject {
        var copy = JSONObject()
        copy.hasNonASCIIKey = hasNonASCIIKey
        for field in fields where try isIncluded((field.key, field.value)) {
            copy.fields.append(field)
        }
        return copy
    }

    /// This object with the fields of `other`; for a key both have, `combine` picks the value.
    public func merging(_ other: JSONObject, uniquingKeysWith combine: (JSONValue, JSONValue) throws -> JSONValue) rethrows -> JSONObject {
        var copy = self
        for field in other.fields {
            if let mine = copy[field.key] {
                copy[field.key] = try combine(mine, field.value)
            } else {
                copy[field.key] = field.value
            }
        }
        return copy
    }

    /// The object as a dictionary.
    public var dictionary: [String: JSONValue] {
        Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The keys of three objects (base, ours, theirs) in canonical order, each once with its
    /// value in each object (nil where it has none), as merges walk them. Keys of ASCII
    /// bytes, as nearly all are, in one walk of the three sorted objects; other keys are
    /// matched as Swift compares strings, each in one spelling: the first in UTF-8 order of
    /// those the objects use, so that the merged object is the same bytes whichever side
    /// merges.
    public static func aligned(_ first: JSONObject, _ second: JSONObject, _ third: JSONObject)
        -> [(key: String, values: (JSONValue?, JSONValue?, JSONValue?))]
    {
        var result: [(key: String, values: (JSONValue?, JSONValue?, JSONValue?))] = []
        guard !first.hasNonASCIIKey, !second.hasNonASCIIKey, !third.hasNonASCIIKey else {
            var spellings: [String: String] = [:]
            for object in [first, second, third] {
                for field in object.fields {
                    if let kept = spellings[field.key], !precedes(field.key, kept) { continue }
                    spellings[field.key] = field.key
                }
            }
            for key in spellings.values.sorted(by: precedes) {
                result.append((key, (first[key], second[key], third[key])))
            }
            return result
        }
        result.reserveCapacity(Swift.max(first.count, second.count, third.count))
        var (a, b, c) = (0, 0, 0)
        while true {
            // The least of the three current keys (ASCII: Swift's order is the bytes' order).
            var next: String?
            if a < first.count { next = first.fields[a].key }
            if b < second.count, next.map({ second.fields[b].key < $0 }) ?? true { next = second.fields[b].key }
            if c < third.count, next.map({ third.fields[c].key < $0 }) ?? true { next = third.fields[c].key }
            guard let key = next else { return result }
            var values: (JSONValue?, JSONValue?, JSONValue?) = (nil, nil, nil)
            if a < first.count, first.fields[a].key == key {
                values.0 = first.fields[a].value
                a += 1
            }
            if b < second.count, second.fields[b].key == key {
                values.1 = second.fields[b].value
                b += 1
            }
            if c < third.count, third.fields[c].key == key {
                values.2 = third.fields[c].value
                c += 1
            }
            result.append((key, values))
        }
    }

    // MARK: Order

    /// Whether `left` comes before `right` in canonical order: by UTF-8 bytes.
    static func precedes(_ left: String, _ right: String) -> Bool {
        compare(left, right) < 0
    }

    /// Whether two keys are the same bytes.
    static func sameBytes(_ left: String, _ right: String) -> Bool {
        left.utf8.count == right.utf8.count && compare(left, right) == 0
    }

    /// The order of two strings' UTF-8 bytes: negative, zero or positive. Read from their
    /// storage where Swift has it at hand (always, for a string made in Swift), else byte by
    /// byte through their views.
    static func compare(_ left: String, _ right: String) -> Int {
        let fast = left.utf8.withContiguousStorageIfAvailable { first in
            right.utf8.withContiguousStorageIfAvailable { second in
                let common = Swift.min(first.count, second.count)
                var index = 0
                while index < common {
                    if first[index] != second[index] { return first[index] < second[index] ? -1 : 1 }
                    index += 1
                }
                return first.count - second.count
            }
        }
        if let result = fast ?? nil { return result }
        if left.utf8.elementsEqual(right.utf8) { return 0 }
        return left.utf8.lexicographicallyPrecedes(right.utf8) ? -1 : 1
    }

    private static func isSorted(_ fields: [Field]) -> Bool {
        for index in fields.indices.dropFirst() where !precedes(fields[index - 1].key, fields[index].key) {
            return false
        }
        return true
    }

    static func isASCII(_ key: String) -> Bool {
        key.utf8.allSatisfy { $0 < 0x80 }
    }

    /// Where `key` is, in the spelling given or in any other Swift takes as equal.
    private func index(of key: String) -> Int? {
        let point = insertionPoint(of: key)
        if point < fields.count, Self.sameBytes(fields[point].key, key) { return point }
        // Two ASCII strings are equal only as the same bytes.
        guard hasNonASCIIKey || !Self.isASCII(key) else { return nil }
        return fields.firstIndex { $0.key == key }
    }

    /// The first position whose key does not come before `key`.
    private func insertionPoint(of key: String) -> Int {
        // Most objects are a handful of fields: a walk, until it is cheaper to halve.
        if fields.count <= 8 {
            var index = 0
            while index < fields.count, Self.precedes(fields[index].key, key) { index += 1 }
            return index
        }
        var (low, high) = (0, fields.count)
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(fields[middle].key, key) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension JSONObject: RandomAccessCollection {
    public typealias Element = (key: String, value: JSONValue)
    public var startIndex: Int { 0 }
    public var endIndex: Int { fields.count }
    public subscript(position: Int) -> Element { (fields[position].key, fields[position].value) }
    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(uniqueKeysWithValues: elements)
    }
}

extension JSONObject: Hashable {
    /// Equal as dictionaries are: the same keys (as Swift compares strings) with equal values.
    public static func == (left: JSONObject, right: JSONObject) -> Bool {
        guard left.count == right.count else { return false }
        // The same spellings: the same order.
        if zip(left.fields, right.fields).allSatisfy({ sameBytes($0.key, $1.key) && $0.value == $1.value }) {
            return true
        }
        guard left.hasNonASCIIKey || right.hasNonASCIIKey else { return false }
        return left.fields.allSatisfy { right[$0.key] == $0.value }
    }

    /// Whatever the order of the fields, as a dictionary's hash.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        var combined = 0
        for field in fields {
            var own = Hasher()
            own.combine(field.key)
            own.combine(field.value)
            combined ^= own.finalize()
        }
        hasher.combine(combined)
    }
}

extension JSONObject: CustomStringConvertible {
    public var description: String {
        "[" + fields.map { "\(String(reflecting: $0.key)): \($0.value)" }.joined(separator: ", ") + "]"
    }
}
