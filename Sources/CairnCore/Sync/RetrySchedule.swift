/// How long to wait before each new try after a network failure: `[5, 30, 300]` tries three
/// more times, after 5 s, 30 s and 5 min (the shape seed apps use for their sync queue). An
/// empty schedule never tries again.
public struct RetrySchedule: Sendable, Hashable, CustomStringConvertible {
    /// The pauses, in seconds, one per retry.
    public var delays: [Double]

    public init(_ delays: [Double]) {
        self.delays = delays
    }

    /// 5 s, 30 s, 5 min.
    public static let standard = RetrySchedule([5, 30, 300])
    /// No retry.
    public static let none = RetrySchedule([])

    /// Parses `5,30,300` (seconds; decimals allowed, `none` or empty for no retry).
    public init(parsing text: String) throws(CairnError) {
        let trimmed = String(text.trimmedOfSpaces)
        if trimmed.isEmpty || trimmed == "none" {
            self.init([])
            return
        }
        var delays: [Double] = []
        for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Double(String(part.trimmedOfSpaces)), value >= 0, value <= 86_400 else {
                throw CairnError(
                    .invalidInput,
                    "invalid retry schedule \(String(reflecting: text)): give seconds separated by commas, like 5,30,300 (or none)")
            }
            delays.append(value)
        }
        self.init(delays)
    }

    public var description: String {
        delays.isEmpty ? "none" : delays.map { $0 == $0.rounded() ? "\(Int($0))" : "\($0)" }.joined(separator: ",")
    }
}
