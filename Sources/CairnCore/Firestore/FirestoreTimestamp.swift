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
        let bytes = Array(text.utf8)
        var position = 0
        func number(_ digits: Int) -> Int64? {
            guard position + digits <= bytes.count else { return nil }
            var value: Int64 = 0
            for byte in bytes[position..<(position + digits)] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int64(byte - 0x30)
            }
            position += digits
            return value
        }
        func expect(_ characters: UInt8...) -> Bool {
            guard position < bytes.count, characters.contains(bytes[position]) else { return false }
            position += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
              expect(0x54, 0x74), let hour = number(2), expect(0x3A), let minute = number(2), expect(0x3A),
              let second = number(2) else { return nil }
        let monthDays: [Int64] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), day >= 1, hour < 24, minute < 60, second < 60 else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        guard day <= monthDays[Int(month - 1)] + (month == 2 && leap ? 1 : 0) else { return nil }
        var nanoseconds: Int64 = 0
        if expect(0x2E) {
            var digits = 0
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                nanoseconds = nanoseconds * 10 + Int64(bytes[position] - 0x30)
                digits += 1
                position += 1
            }
            guard (1...9).contains(digits) else { return nil }
            for _ in digits..<9 { nanoseconds *= 10 }
        }
        var offset: Int64 = 0
        if !expect(0x5A, 0x7A) {
            guard position < bytes.count, bytes[position] == 0x2B || bytes[position] == 0x2D else { return nil }
            let sign: Int64 = bytes[position] == 0x2D ? -1 : 1
            position += 1
            guard let hours = number(2), expect(0x3A), let minutes = number(2), hours < 24, minutes < 60 else { return nil }
            offset = sign * (hours * 60 + minutes)
        }
        guard position == bytes.count else { return nil }
        // Days from the civil date (proleptic Gregorian), after Howard Hinnant's algorithm.
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        self.init(seconds: days * 86_400 + hour * 3_600 + minute * 60 + second - offset * 60, nanoseconds: nanoseconds)
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
