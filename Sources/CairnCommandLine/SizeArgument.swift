import CairnCore

/// A size as an option takes it: `500MB`, `10 MB`, `1.5GB`, `512KiB`, `1000` (bytes).
package enum SizeArgument {
    /// The bytes `text` says; refused in one line naming `option`, then `consequence`.
    package static func bytes(_ text: String, option: String, then consequence: String = "nothing was changed") throws(CairnError) -> Int64
    {
        let units: [(String, Double)] = [
            ("KiB", 1024), ("MiB", 1_048_576), ("GiB", 1_073_741_824), ("kB", 1e3), ("KB", 1e3),
            ("MB", 1e6), ("GB", 1e9), ("B", 1),
        ]
        let trimmed = String(text.filter { $0 != " " })
        let unit = units.first { trimmed.hasSuffix($0.0) }
        let number = unit.map { String(trimmed.dropLast($0.0.count)) } ?? trimmed
        guard let value = Double(number), value.isFinite, value >= 0, value * (unit?.1 ?? 1) < 9e18 else {
            throw CairnError(
                .invalidInput, "invalid \(option) \(String(reflecting: text)): give a size like 500MB, 10MB or 1GB; \(consequence)")
        }
        return Int64(value * (unit?.1 ?? 1))
    }
}
