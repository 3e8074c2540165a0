/// Repeated measurements of one thing, in one unit, summed up as a median with its spread.
struct Samples: Sendable {
    var values: [Double] = []

    mutating func append(_ value: Double) { values.append(value) }

    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    var minimum: Double { values.min() ?? .nan }
    var maximum: Double { values.max() ?? .nan }

    /// `12.3 (10.1–15.0)`: the median, then the smallest and largest.
    var summary: String {
        "\(Self.format(median)) (\(Self.format(minimum))–\(Self.format(maximum)))"
    }

    /// Three significant digits, enough for figures this noisy.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "–" }
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        return formatted(value, decimals: decimals)
    }

    static func formatted(_ value: Double, decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if let dot = text.firstIndex(of: ".") {
            let have = text.distance(from: dot, to: text.endIndex) - 1
            if decimals == 0 {
                text = String(text[..<dot])
            } else if have < decimals {
                text += String(repeating: "0", count: decimals - have)
            }
        }
        return text
    }
}
