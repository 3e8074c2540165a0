/// The times generated documents carry, as `date-time` text (`2024-02-01T00:17:05Z`) or as
/// integers. Fresh values fall in January 2024; the stamps of edits at step `t` are
/// 2024-02-01 plus `t` seconds, so an edit's stamp is later than every fresh value and than
/// every earlier edit's; the values a `min` edit lowers to are before 2024, earlier at every
/// step. Text stamps in one form order as their times do.
public enum GeneratedTime {
    /// 2024-01-01T00:00:00Z, in seconds since 1970.
    static let freshStart: Int64 = 1_704_067_200
    /// 2024-02-01T00:00:00Z.
    static let stampStart: Int64 = 1_706_745_600
    /// 2023-12-31T00:00:00Z.
    static let lowerStart: Int64 = 1_703_980_800

    /// `seconds` since 1970 as ISO 8601 text in UTC.
    public static func text(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let rest = seconds - days * 86_400
        // Days to a civil date (proleptic Gregorian), after Howard Hinnant's algorithm.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(rest / 3_600)):\(two(rest / 60 % 60)):\(two(rest % 60))Z"
    }

    /// The seconds of an ISO 8601 text, nil when it is not one.
    static func seconds(_ text: String) -> Int64? {
        ISO8601Stamp(text).map { $0.milliseconds / 1_000 }
    }

    /// The stamp of step `time`, as text.
    static func stamp(_ time: Int64) -> String { text(stampStart + time) }
}
