#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension StoreKey {
    /// A key written as text: 64 hex digits, or base64 of the 32 bytes (44 characters);
    /// spaces and line breaks around it are ignored. `source` names where the text came from
    /// (an environment variable, a line of a key file) in the error.
    ///
    /// Sixty-four hex digits are also valid base64, but of 48 bytes, never of a key, so the
    /// two spellings cannot be confused.
    public init(text: String, source: String) throws(CairnError) {
        // Environment variables and files often end with a line break.
        let text = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        if text.isEmpty {
            throw CairnError(.invalidInput, "\(source) is empty; give the store's key, base64 or hex of \(Self.byteCount) bytes")
        }
        let bytes: [UInt8]
        if let hex = Self.hexBytes(text) {
            bytes = hex
        } else if let base64 = Data(base64Encoded: text) {
            bytes = Array(base64)
        } else {
            throw CairnError(
                .invalidInput,
                "\(source) is not a key: neither base64 nor hex; give the store's key, base64 or hex of \(Self.byteCount) bytes")
        }
        guard bytes.count == Self.byteCount else {
            throw CairnError(
                .invalidInput,
                "\(source) holds \(bytes.count) bytes, not a key; a store key is \(Self.byteCount) bytes (256 bits), base64 or hex")
        }
        self = try StoreKey(bytes: bytes)
    }

    /// The key in base64, as a key file holds it.
    public var base64: String {
        Data(bytes).base64EncodedString()
    }

    /// The bytes of 64 hex digits, or nil when `text` is not that.
    private static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count == Self.byteCount * 2 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.byteCount)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
