/// A time written in ISO 8601 as stamps are (`2026-11-22T08:00:00Z`,
/// `2026-11-22T08:00:00.250+01:00`), read and written without Foundation.
public struct ISO8601Stamp {
    /// Milliseconds since 1970-01-01 UTC.
    package let milliseconds: Int64

    package init?(_ text: String) {
        guard let instant = Self.instant(text, strict: false) else { return nil }
        milliseconds = instant.seconds * 1_000 + instant.nanoseconds / 1_000_000
    }

    /// The instant ISO 8601 text names: seconds since 1970-01-01 UTC and nanoseconds (the
    /// first nine digits of a fraction); nil for text that is not a date, a time and `Z` or
    /// an offset. As stamps are read, a space may stand for `T`, a day is at most 31 and a
    /// second at most 60; `strict` reads RFC 3339 only: `T` or `t`, days of the month's
    /// length, seconds below 60, one to nine digits of fraction, an offset below 24 hours.
    package static func instant(_ text: String, strict: Bool) -> (seconds: Int64, nanoseconds: Int64)? {
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
        let separators: [UInt8] = strict ? [0x54, 0x74] : [0x54, 0x74, 0x20]
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
            position < bytes.count, separators.contains(bytes[position])
        else { return nil }
        position += 1
        guard let hour = number(2), expect(0x3A), let minute = number(2), expect(0x3A), let second = number(2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < (strict ? 60 : 61)
        else { return nil }
        if strict {
            let monthDays: [Int64] = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
            guard day <= monthDays[Int(month - 1)] + (month == 2 && leap ? 1 : 0) else { return nil }
        }
        var nanoseconds: Int64 = 0
        if expect(0x2E) {
            var digits = 0
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                if digits < 9 { nanoseconds = nanoseconds * 10 + Int64(bytes[position] - 0x30) }
                digits += 1
                position += 1
            }
            guard digits > 0, !strict || digits <= 9 else { return nil }
            if digits < 9 { for _ in digits..<9 { nanoseconds *= 10 } }
        }
        var offset: Int64 = 0
        if !expect(0x5A, 0x7A) {
            guard position < bytes.count, bytes[position] == 0x2B || bytes[position] == 0x2D else { return nil }
            let sign: Int64 = bytes[position] == 0x2D ? -1 : 1
            position += 1
            guard let hours = number(2), expect(0x3A), let minutes = number(2), !strict || (hours < 24 && minutes < 60) else { return nil }
            offset = sign * (hours * 60 + minutes)
        }
        guard position == bytes.count else { return nil }
        // Days from the civil date (proleptic Gregorian), after Howard Hinnant's algorithm.
        // The year counted from March, so that a leap day ends it.
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return (days * 86_400 + hour * 3_600 + minute * 60 + second - offset * 60, nanoseconds)
    }

    /// `seconds` since 1970 as ISO 8601 text in UTC, to the second: `2026-11-22T02:12:02Z`;
    /// with `separator` `" "`, as people read it (`2026-11-22 02:12:02Z`).
    public static func text(seconds: Int64, separator: String = "T") -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        // Days to a civil date (proleptic Gregorian), after Howard Hinnant's algorithm.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))\(separator)\(two(time / 3_600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
    }
}
