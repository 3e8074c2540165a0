/// The values a document is made of, one per JSON pointer, as `cairn blame` lists them.
extension JSONValue {
    /// One leaf of a value: a scalar, or an empty object or array.
    public struct Leaf: Sendable, Equatable {
        /// Its JSON pointer (RFC 6901; empty for a value that is itself a leaf).
        public var pointer: String
        /// The keys and array indexes leading to it, unescaped.
        public var tokens: [String]
        public var value: JSONValue
    }

    /// Every leaf of the value, in the order of their pointers (keys in canonical order,
    /// array elements by index).
    public var leaves: [Leaf] {
        var found: [Leaf] = []
        collectLeaves(pointer: "", tokens: [], into: &found)
        return found
    }

    private func collectLeaves(pointer: String, tokens: [String], into found: inout [Leaf]) {
        switch self {
        case .object(let fields) where !fields.isEmpty:
            for (key, value) in fields {
                value.collectLeaves(pointer: pointer + "/" + MergePolicy.escape(key), tokens: tokens + [key], into: &found)
            }
        case .array(let elements) where !elements.isEmpty:
            for (index, value) in elements.enumerated() {
                value.collectLeaves(pointer: pointer + "/\(index)", tokens: tokens + [String(index)], into: &found)
            }
        default:
            found.append(Leaf(pointer: pointer, tokens: tokens, value: self))
        }
    }

    /// The reference tokens of a JSON pointer, unescaped (`/a~1b/0` → `a/b`, `0`); [] for "".
    public static func tokens(ofPointer pointer: String) -> [String] {
        pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            String($0).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// The value the tokens lead to (keys of objects, decimal indexes of arrays), or nil when
    /// there is none.
    public func value(atTokens tokens: some Collection<String>) -> JSONValue? {
        var current = self
        for token in tokens {
            switch current {
            case .object(let fields):
                guard let next = fields[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index), String(index) == token else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
