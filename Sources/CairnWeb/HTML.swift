import CairnMerge

/// Text made safe for a page: every piece of a store's data (paths, values, messages, device
/// names) passes through here on its way into HTML, as text or as an attribute's value.
enum HTML {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by their entities.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// A JSON value on one line, shortened past `limit` characters, escaped; `(absent)` for none.
    static func value(_ value: JSONValue?, limit: Int = 160) -> String {
        guard let value else { return "<span class=\"absent\">(absent)</span>" }
        let text = value.inlineText
        return "<code>" + escape(text.count > limit ? String(text.prefix(limit)) + "…" : text) + "</code>"
    }

    /// A JSON pointer as code, `/` for the whole document.
    static func pointer(_ pointer: String) -> String {
        "<code>" + escape(pointer.isEmpty ? "/" : pointer) + "</code>"
    }

    /// One path segment (a uid, a document id) as a URL's path segment: everything outside
    /// the unreserved characters percent-encoded, so any id Firestore allows survives.
    static func segment(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 15, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    /// A percent-encoded path segment decoded; nil when it is not valid percent-encoded UTF-8.
    static func decodeSegment(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first < utf8.endIndex, utf8.index(after: first) < utf8.endIndex,
                    let high = hexDigit(utf8[first]), let low = hexDigit(utf8[utf8.index(after: first)])
                else { return nil }
                bytes.append(high << 4 | low)
                index = utf8.index(first, offsetBy: 2)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
