extension JSONValue {
    /// The canonical text of the value, the only form in which Cairn writes documents:
    /// keys sorted by their UTF-8 bytes, two-space indent, one field or element per line,
    /// `\n` line ends and a final newline, integers as integers, doubles in their shortest
    /// round-trip form, and UTF-8 left unescaped but for `"`, `\` and control characters.
    ///
    /// The same value always gives the same bytes, so the same git blob.
    public func canonicalBytes() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(1_024)
        writeCanonical(into: &output, indent: 0)
        output.append(0x0A)
        return output
    }

    /// The canonical text as a string (see ``canonicalBytes()``).
    public var canonicalText: String {
        String(decoding: canonicalBytes(), as: UTF8.self)
    }

    private func writeCanonical(into output: inout [UInt8], indent: Int) {
        switch self {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let integer):
            Self.writeInteger(integer, into: &output)
        case .double(let double):
            output.append(contentsOf: Self.canonicalDouble(double).utf8)
        case .string(let text):
            Self.writeString(text, into: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(UInt8(ascii: "["))
            for (position, element) in elements.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(into: &output, indent: indent + 1)
                element.writeCanonical(into: &output, indent: indent + 1)
            }
            Self.newline(into: &output, indent: indent)
            output.append(UInt8(ascii: "]"))
        case .object(let fields):
            guard !fields.isEmpty else {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            for (position, field) in fields.enumerated() {
                if position > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(into: &output, indent: indent + 1)
                Self.writeString(field.key, into: &output)
                output.append(UInt8(ascii: ":"))
                output.append(UInt8(ascii: " "))
                field.value.writeCanonical(into: &output, indent: indent + 1)
            }
            Self.newline(into: &output, indent: indent)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// An object's keys in canonical order: by their UTF-8 bytes, whatever the locale.
    public static func sortedKeys(_ fields: JSONObject) -> [String] {
        fields.keys
    }

    /// The shortest text that reads back as the same double, with a plain exponent
    /// (`1e22`, `1.5e-7`); a double keeps a fraction (`100.0`) so it stays a double.
    static func canonicalDouble(_ double: Double) -> String {
        let text = double.description
        guard let exponentStart = text.firstIndex(of: "e") else { return text }
        let mantissa = text[..<exponentStart]
        var exponent = text[text.index(after: exponentStart)...]
        var negative = false
        if exponent.first == "+" || exponent.first == "-" {
            negative = exponent.first == "-"
            exponent = exponent.dropFirst()
        }
        let digits = exponent.drop { $0 == "0" }
        return mantissa + "e" + (negative ? "-" : "") + (digits.isEmpty ? "0" : digits)
    }

    /// An integer's decimal digits, as `String(integer)` writes them, without the string.
    static func writeInteger(_ integer: Int64, into output: inout [UInt8]) {
        if integer < 0 { output.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned, so Int64.min has one too; its digits counted first,
        // then written from the last, in place.
        var magnitude = integer.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let start = output.count
        output.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        output.withUnsafeMutableBufferPointer { buffer in
            var position = start + digits - 1
            repeat {
                buffer[position] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                position -= 1
            } while magnitude > 0
        }
    }

    private static func newline(into output: inout [UInt8], indent: Int) {
        output.append(0x0A)
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    private static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most strings need no escape: their bytes go as they are, at once.
        let plain = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            output.append(contentsOf: bytes)
            return true
        }
        if plain == true {
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
            case 0x0A: output.append(contentsOf: "\\n".utf8)
            case 0x0D: output.append(contentsOf: "\\r".utf8)
            case 0x09: output.append(contentsOf: "\\t".utf8)
            case 0x08: output.append(contentsOf: "\\b".utf8)
            case 0x0C: output.append(contentsOf: "\\f".utf8)
            case 0x00..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                output.append(contentsOf: "\\u00".utf8)
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 0x0F)])
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
