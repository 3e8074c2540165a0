import ArgumentParser
import CairnCommandLine
import CairnCore
import CairnMerge

/// `cairn content limits`: show or set the cache's limits (kept in its record).
struct ContentLimitsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "limits",
        abstract: "Show the content cache's limits, or set some of them.",
        discussion: """
            Sizes in B, kB, MB or GB (decimal, as 500 MB is meant) or KiB, MiB, GiB; times in \
            s, m, h or d. The seed's defaults: --budget 500MB --items 50 --item-size 10MB --expiry 7d. \
            A new limit holds from the next download; nothing is evicted now.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The most the items may take on disk together.", valueName: "size"))
    var budget: String?

    @Option(help: ArgumentHelp("The most items kept.", valueName: "count"))
    var items: Int?

    @Option(name: .customLong("item-size"), help: ArgumentHelp("The most one item may take on disk.", valueName: "size"))
    var itemSize: String?

    @Option(help: ArgumentHelp("How long a download stays fresh.", valueName: "time"))
    var expiry: String?

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let cache = ContentCache(home: global.resolvedHome)
        var limits = try cache.limits()
        let changing = budget != nil || items != nil || itemSize != nil || expiry != nil
        if let budget { limits.budgetBytes = try Self.bytes(budget, option: "--budget") }
        if let itemSize { limits.maxItemBytes = try Self.bytes(itemSize, option: "--item-size") }
        if let items {
            guard items >= 1 else { throw CairnError(.invalidInput, "invalid --items \(items): give at least 1; nothing was changed") }
            limits.maxItems = items
        }
        if let expiry { limits.expirySeconds = try Self.seconds(expiry) }
        if changing { try cache.setLimits(limits) }
        if json { return Output.json(Self.jsonValue(of: limits)) }
        print(
            "budget \(ContentCache.shown(limits.budgetBytes)), \(limits.maxItems) item\(limits.maxItems == 1 ? "" : "s"), \(ContentCache.shown(limits.maxItemBytes)) an item, expiry \(Self.duration(limits.expirySeconds))"
        )
    }

    static func jsonValue(of limits: ContentLimits) -> JSONValue {
        .object([
            "budgetBytes": .integer(limits.budgetBytes), "maxItems": .integer(Int64(limits.maxItems)),
            "maxItemBytes": .integer(limits.maxItemBytes), "expirySeconds": .integer(limits.expirySeconds),
        ])
    }

    /// `500MB`, `10 MB`, `1.5GB`, `512KiB`, `1000` (bytes).
    static func bytes(_ text: String, option: String) throws(CairnError) -> Int64 {
        try SizeArgument.bytes(text, option: option)
    }

    /// `7d`, `12h`, `90m`, `30s`, `600` (seconds).
    static func seconds(_ text: String) throws(CairnError) -> Int64 {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        let trimmed = String(text.filter { $0 != " " })
        let scale = trimmed.last.flatMap { units[$0] }
        let number = scale == nil ? trimmed : String(trimmed.dropLast())
        guard let value = Int64(number), value >= 0, value <= 36_500 * 86_400 / (scale ?? 1) else {
            throw CairnError(
                .invalidInput, "invalid --expiry \(String(reflecting: text)): give a time like 7d, 12h or 90m; nothing was changed")
        }
        return value * (scale ?? 1)
    }

    static func duration(_ seconds: Int64) -> String {
        for (unit, scale) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60)] where seconds >= scale && seconds % scale == 0 {
            return "\(seconds / scale)\(unit)"
        }
        return "\(seconds)s"
    }
}
