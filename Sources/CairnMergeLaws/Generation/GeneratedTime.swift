import CairnMerge

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

    /// The seconds of an ISO 8601 text, nil when it is not one.
    static func seconds(_ text: String) -> Int64? {
        ISO8601Stamp(text).map { $0.milliseconds / 1_000 }
    }

    /// The stamp of step `time`, as text.
    static func stamp(_ time: Int64) -> String { ISO8601Stamp.text(seconds: stampStart + time) }
}
