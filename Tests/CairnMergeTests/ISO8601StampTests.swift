import CairnMerge
import Testing

/// One reader of ISO 8601 text for two callers: merge stamps (lenient, as stamps in the wild
/// are written) and Firestore timestamps (strict RFC 3339). The lenient results are the
/// instants the stamp reader gave before the two were one, so merges decide as they did.
@Suite struct ISO8601StampTests {
    /// Text, then milliseconds since 1970 as stamps are read (nil: not a stamp), then whether
    /// it is RFC 3339.
    static let cases: [(String, Int64?, Bool)] = [
        ("2026-11-22T08:00:00Z", 1_795_334_400_000, true),
        ("2026-11-22t08:00:00z", 1_795_334_400_000, true),
        ("2026-11-22 08:00:00Z", 1_795_334_400_000, false),
        ("2026-11-22T08:00:00.123Z", 1_795_334_400_123, true),
        // Past nine digits a fraction is a stamp's (its first three count), not RFC 3339's.
        ("2026-11-22T08:00:00.1239999999999Z", 1_795_334_400_123, false),
        ("2026-11-22T08:00:00.123456789+01:00", 1_795_334_400_123 - 3_600_000, true),
        // Offsets and seconds as a stamp takes them, which RFC 3339 does not.
        ("2026-11-22T08:00:00+99:99", 1_794_972_060_000, false),
        ("2026-11-22T08:00:60Z", 1_795_334_460_000, false),
        ("2026-02-31T00:00:00Z", 1_772_496_000_000, false),
        ("2026-11-22T08:00:00", nil, false),
        ("2026-11-22T08:00:00.Z", nil, false),
        ("2026-13-01T00:00:00Z", nil, false),
        ("2026-11-22T24:00:00Z", nil, false),
        ("2026-11-22T08:00:00Z ", nil, false),
    ]

    @Test(arguments: cases.indices)
    func aStampIsReadAsItWasAndRFC3339Strictly(index: Int) {
        let (text, milliseconds, isRFC3339) = Self.cases[index]
        let lenient = ISO8601Stamp.instant(text, strict: false)
        #expect(lenient.map { $0.seconds * 1_000 + $0.nanoseconds / 1_000_000 } == milliseconds, "\(text)")
        #expect((ISO8601Stamp.instant(text, strict: true) != nil) == isRFC3339, "\(text)")
        if isRFC3339 {
            #expect(ISO8601Stamp.instant(text, strict: true)?.seconds == lenient?.seconds)
        }
    }
}
