/// A time written in ISO 8601 as stamps are (`2026-11-22T08:00:00Z`,
/// `2026-11-22T08:00:00.250+01:00`), read and written without Foundation.
public struct ISO8601Stamp {
    /// Milliseconds since 1970-01-01 UTC.
    let milliseconds: Int64

    init?(_ text: String) {
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
        func expect(_ character: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == character else { return false }
            position += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
              position < bytes.count, bytes[position] == 0x54 || bytes[position] == 0x74 || bytes[position] == 0x20 else { return nil }
        position += 1
        guard let hour = number(2), expect(0x3A), let minute = number(2), expect(0x3A), let second = number(2),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var fraction: Int64 = 0
        if expect(0x2E) {
            var digits = 0
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 {
                if digits < 3 { fraction = fraction * 10 + Int64(bytes[position] - 0x30) }
                digits += 1
                position += 1
            }
            guard digits > 0 else { return nil }
            if digits < 3 { for _ in digits..<3 { fraction *= 10 } }
        }
        var offset: Int64 = 0
        if expect(0x5A) || expect(0x7A) {
            offset = 0
        } else if position < bytes.count, bytes[position] == 0x2B || bytes[position] == 0x2D {
            let sign: Int64 = bytes[position] == 0x2D ? -1 : 1
            position += 1
            guard let hours = number(2), expect(0x3A), let minutes = number(2) else { return nil }
            offset = sign * (hours * 60 + minutes)
        } else {
            return nil
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
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset * 60
        milliseconds = seconds * 1_000 + fraction
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
