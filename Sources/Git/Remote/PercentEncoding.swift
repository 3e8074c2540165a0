/// The percent-encoding of URLs (RFC 3986): how a user name with `@` or `:` stands in one.
public enum PercentEncoding {
    /// `text` with each `%XX` turned back into its byte; a `%` not followed by two hex
    /// digits stays as it is.
    public static func decoded<Text: StringProtocol>(_ text: Text) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%"), let high = iterator.next(), let low = iterator.next(),
                let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16)
            {
                bytes.append(value)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` with every byte but the unreserved ones (letters, digits, `-._~`) as `%XX`.
    public static func encoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let character = Character(Unicode.Scalar(byte))
            if byte < 0x80, character.isLetter || character.isNumber || "-._~".contains(character) {
                result.append(character)
            } else {
                let digits = String(byte, radix: 16, uppercase: true)
                result += "%" + (digits.count < 2 ? "0" : "") + digits
            }
        }
        return result
    }
}
