/// A strict JSON parser (RFC 8259) for documents.
///
/// Beyond the grammar it refuses what a stored document must never hold: invalid UTF-8 (and
/// a byte-order mark), duplicate keys in one object, numbers that do not fit (`NaN`,
/// `Infinity`, `1e400`, integers beyond `Int64`), lone surrogates, nesting deeper than
/// ``JSONLimits/maxDepth`` and input longer than ``JSONLimits/maxBytes``.
public struct JSONParser {
    public var limits: JSONLimits

    public init(limits: JSONLimits = .documents) {
        self.limits = limits
    }

    /// Parses one JSON value that fills the whole input (white space around it allowed).
    public func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let input = Array(bytes)
        return try input.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONValue in
            var reader = Reader(input: buffer, limits: limits)
            if buffer.count > limits.maxBytes {
                throw reader.error("document is \(buffer.count) bytes; the limit is \(limits.maxBytes) bytes", at: 0)
            }
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) {
                throw reader.error("starts with a byte-order mark; save the file as UTF-8 without BOM", at: 0)
            }
            reader.skipWhitespace()
            let value = try reader.readValue(depth: 0)
            reader.skipWhitespace()
            if reader.position < buffer.count {
                throw reader.error("unexpected text after the end of the value")
            }
            return value
        }
    }

    /// Parses a Swift string as JSON.
    public func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

/// The cursor of one parse, over the input's bytes in place: every read of a byte is at a
/// position checked against the input's length first (the `current` byte is nil at the end).
private struct Reader {
    let input: UnsafeBufferPointer<UInt8>
    let limits: JSONLimits
    var position = 0
    /// Where the bytes of the string just read are, when they are ASCII with no escape.
    var plainString: Range<Int>?

    init(input: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.input = input
        self.limits = limits
    }

    func error(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        let offset = min(offset ?? position, input.count)
        var line = 1
        var lineStart = 0
        for index in 0..<offset where input[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        return JSONParseError(reason: reason, offset: offset, line: line, column: offset - lineStart + 1)
    }

    var current: UInt8? { position < input.count ? input[position] : nil }

    mutating func skipWhitespace() {
        while let byte = current,
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        {
            position += 1
        }
    }

    mutating func expect(_ literal: StaticString, value: JSONValue) throws(JSONParseError) -> JSONValue {
        let bytes = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard input.count - position >= bytes.count,
            input[position..<position + bytes.count].elementsEqual(bytes)
        else {
            throw error("unexpected character; expected a value")
        }
        position += bytes.count
        return value
    }

    mutating func readValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard let byte = current else { throw error("unexpected end of input; expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
        case UInt8(ascii: "["): return try readArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): return try expect("true", value: .bool(true))
        case UInt8(ascii: "f"): return try expect("false", value: .bool(false))
        case UInt8(ascii: "n"): return try expect("null", value: .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw error("NaN and Infinity are not JSON numbers")
        default:
            throw error("unexpected character; expected a value")
        }
    }

    mutating func enter(depth: Int) throws(JSONParseError) {
        if depth > limits.maxDepth {
            throw error("nesting deeper than \(limits.maxDepth) levels")
        }
        position += 1
        skipWhitespace()
    }

    mutating func readObject(depth: Int) throws(JSONParseError) -> JSONValue {
        let opening = position
        try enter(depth: depth)
        if current == UInt8(ascii: "}") {
            position += 1
            return .object([:])
        }
        // Most objects are small: their fields gather in an array made for four, which grows
        // for larger ones and becomes the object as it is.
        var fields: [JSONObject.Field] = []
        fields.reserveCapacity(4)
        // Whether every key so far is plain ASCII, each after the one before in canonical
        // order (`previousKey`, where its bytes are): what a canonical document holds, an
        // object with nothing left to check.
        var canonical = true
        var previousKey: Range<Int>?
        while true {
            guard current == UInt8(ascii: "\"") else { throw error("expected a key in double quotes") }
            let key = try readString()
            if let bytes = plainString, canonical, let previous = previousKey {
                canonical = precedes(previous, bytes)
            } else if plainString == nil || !fields.isEmpty {
                canonical = false
            }
            previousKey = plainString
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
            position += 1
            skipWhitespace()
            let value = try readValue(depth: depth)
            fields.append(JSONObject.Field(key: key, value: value))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                position += 1
                if canonical { return .object(JSONObject(checkedFields: fields, hasNonASCIIKey: false)) }
                let (object, duplicate) = JSONObject.parsed(fields)
                guard let object else {
                    let index = duplicate!
                    throw error(
                        "duplicate key \(quoted(fields[index].key)) in one object",
                        at: offsetOfKey(index, inObjectAt: opening, depth: depth))
                }
                return .object(object)
            default:
                throw error("expected ',' or '}'")
            }
        }
    }

    /// Where the key at `index` of the object opening at `opening` starts (its quote): the
    /// object is read again up to it, for the message of a duplicate key. The object was
    /// read whole before, so reading it again cannot fail.
    func offsetOfKey(_ index: Int, inObjectAt opening: Int, depth: Int) -> Int {
        var again = Reader(input: input, limits: limits)
        again.position = opening
        var offset = opening
        do {
            try again.enter(depth: depth)
            for _ in 0...index {
                offset = again.position
                _ = try again.readString()
                again.skipWhitespace()
                again.position += 1
                again.skipWhitespace()
                _ = try again.readValue(depth: depth)
                again.skipWhitespace()
                again.position += 1
                again.skipWhitespace()
            }
        } catch {}
        return offset
    }

    /// Whether the input's bytes in `left` come before those in `right`.
    func precedes(_ left: Range<Int>, _ right: Range<Int>) -> Bool {
        var (first, second) = (left.lowerBound, right.lowerBound)
        while first < left.upperBound, second < right.upperBound {
            if input[first] != input[second] { return input[first] < input[second] }
            first += 1
            second += 1
        }
        return first == left.upperBound && second < right.upperBound
    }

    mutating func readArray(depth: Int) throws(JSONParseError) -> JSONValue {
        try enter(depth: depth)
        var elements: [JSONValue] = []
        if current == UInt8(ascii: "]") {
            position += 1
            return .array(elements)
        }
        while true {
            elements.append(try readValue(depth: depth))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                position += 1
                return .array(elements)
            default:
                throw error("expected ',' or ']'")
            }
        }
    }

    /// Reads a string from its opening quote to its closing one.
    mutating func readString() throws(JSONParseError) -> String {
        position += 1
        plainString = nil
        // Most strings have no escape: they become a String straight from the input, and
        // most are ASCII, which is valid UTF-8 with nothing to check.
        let start = position
        var bits: UInt8 = 0
        while position < input.count {
            let byte = input[position]
            if byte == UInt8(ascii: "\"") {
                let end = position
                let run = UnsafeBufferPointer(rebasing: input[start..<end])
                let text = bits < 0x80 ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
                guard let text else {
                    throw error("string is not valid UTF-8", at: start - 1)
                }
                if bits < 0x80 { plainString = start..<end }
                position += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            bits |= byte
            position += 1
        }
        var bytes: [UInt8] = []
        var runStart = start
        position = start
        while true {
            guard let byte = current else { throw error("unterminated string") }
            if byte == UInt8(ascii: "\"") {
                bytes.append(contentsOf: input[runStart..<position])
                position += 1
                break
            }
            if byte < 0x20 {
                throw error("control character in a string; write it escaped (\\n, \\t, \\u00XX)")
            }
            if byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: input[runStart..<position])
                try readEscape(into: &bytes)
                runStart = position
                continue
            }
            position += 1
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw error("string is not valid UTF-8", at: runStart - 1)
        }
        return text
    }

    /// Reads one escape sequence after a backslash and appends its UTF-8 bytes.
    mutating func readEscape(into bytes: inout [UInt8]) throws(JSONParseError) {
        let start = position
        position += 1
        guard let letter = current else { throw error("unterminated string") }
        position += 1
        switch letter {
        case UInt8(ascii: "\""): bytes.append(0x22)
        case UInt8(ascii: "\\"): bytes.append(0x5C)
        case UInt8(ascii: "/"): bytes.append(0x2F)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard input.count - position >= 6,
                    input[position] == UInt8(ascii: "\\"), input[position + 1] == UInt8(ascii: "u")
                else {
                    throw error("lone surrogate \\u\(hex(scalar)) in a string", at: start)
                }
                position += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("lone surrogate \\u\(hex(scalar)) in a string", at: start)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("lone surrogate \\u\(hex(scalar)) in a string", at: start)
            }
            bytes.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
        default:
            throw error("invalid escape in a string", at: start)
        }
    }

    mutating func readHex4() throws(JSONParseError) -> UInt32 {
        guard input.count - position >= 4 else { throw error("\\u needs four hexadecimal digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = input[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("\\u needs four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    mutating func readNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        var isInteger = true
        if current == UInt8(ascii: "-") { position += 1 }
        guard let first = current, isDigit(first) else {
            if current == UInt8(ascii: "I") { throw error("NaN and Infinity are not JSON numbers") }
            throw error("expected a digit", at: position)
        }
        if first == UInt8(ascii: "0") {
            position += 1
            if let next = current, isDigit(next) { throw error("numbers may not have leading zeros", at: start) }
        } else {
            skipDigits()
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard let digit = current, isDigit(digit) else { throw error("expected a digit after '.'") }
            skipDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard let digit = current, isDigit(digit) else { throw error("expected a digit in the exponent") }
            skipDigits()
        }
        // Up to 18 digits cannot overflow: the common integer needs no text.
        if isInteger, position - start <= 18 {
            var value: Int64 = 0
            var index = start
            let negative = input[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            while index < position {
                value = value &* 10 &+ Int64(input[index] &- UInt8(ascii: "0"))
                index += 1
            }
            return .integer(negative ? -value : value)
        }
        let text = String(decoding: input[start..<position], as: UTF8.self)
        if isInteger {
            guard let integer = Int64(text) else {
                throw error("integer \(text) is outside the 64-bit range; store it as a string", at: start)
            }
            return .integer(integer)
        }
        guard let double = Double(text), double.isFinite else {
            throw error("number \(text) is too large for a double", at: start)
        }
        return .double(double)
    }

    mutating func skipDigits() {
        while let byte = current, isDigit(byte) { position += 1 }
    }

    func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    func quoted(_ key: String) -> String {
        "\"" + (key.count > 40 ? String(key.prefix(40)) + "…" : key) + "\""
    }
}
