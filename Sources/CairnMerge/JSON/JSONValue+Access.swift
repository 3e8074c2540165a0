extension JSONValue {
    /// The array's elements, or nil when the value is not an array.
    package var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The value at a JSON pointer's tokens (keys of objects from the top), or nil.
    package func value(at tokens: [String]) -> JSONValue? {
        var current: JSONValue? = self
        for token in tokens { current = current?.field(token) }
        return current
    }

    /// The value with the one at the pointer's tokens replaced (nil: removed), making the
    /// objects on the way; a value that is not an object on the way is left as it is. At no
    /// tokens, the value itself is replaced (nil: kept).
    package func setting(_ replacement: JSONValue?, at tokens: [String]) -> JSONValue {
        guard let first = tokens.first else { return replacement ?? self }
        guard case .object(var fields) = self else { return self }
        if tokens.count == 1 {
            fields[first] = replacement
        } else {
            fields[first] = (fields[first] ?? .object([:])).setting(replacement, at: Array(tokens.dropFirst()))
        }
        return .object(fields)
    }
}
