import CairnCore
import CairnMerge

/// A Firestore timestamp: seconds since 1970 in UTC and nanoseconds, read from and written as
/// RFC 3339 text (`2026-11-22T08:00:00.250Z`, `2026-11-22T09:00:00+01:00`), between the
/// years 1 and 9999 as Firestore keeps them.
struct FirestoreTimestamp: Hashable, Sendable {
    var seconds: Int64
    var nanoseconds: Int32

    /// The earliest and latest seconds Firestore keeps: 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
    static let range: ClosedRange<Int64> = -62_135_596_800...253_402_300_799

    init?(seconds: Int64, nanoseconds: Int64) {
        guard Self.range.contains(seconds), (0..<1_000_000_000).contains(nanoseconds) else { return nil }
        self.seconds = seconds
        self.nanoseconds = Int32(nanoseconds)
    }

    /// Reads RFC 3339 text: a date, `T` (or `t`), a time with up to nine digits of a
    /// second's fraction, and `Z` or an offset; nil for anything else.
    init?(rfc3339 text: String) {
        guard let instant = ISO8601Stamp.instant(text, strict: true) else { return nil }
        self.init(seconds: instant.seconds, nanoseconds: instant.nanoseconds)
    }

    /// In UTC, as Firestore writes it: `Z`, and 0, 3, 6 or 9 digits of fraction.
    var rfc3339: String {
        var text = ISO8601Stamp.text(seconds: seconds)
        // Years before 1000 with their four digits.
        if let dash = text.firstIndex(of: "-"), text.distance(from: text.startIndex, to: dash) < 4 {
            text = String(repeating: "0", count: 4 - text.distance(from: text.startIndex, to: dash)) + text
        }
        guard nanoseconds > 0 else { return text }
        var digits = String(nanoseconds)
        digits = String(repeating: "0", count: 9 - digits.count) + digits
        while digits.count > 3, digits.hasSuffix("000") { digits.removeLast(3) }
        text.removeLast()
        return text + "." + digits + "Z"
    }
}
