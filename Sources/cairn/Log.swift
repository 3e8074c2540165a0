import ArgumentParser
import CairnCore
import CairnMerge

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the checkpoints of the store, or those that changed one document.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A document path: only the checkpoints that changed it.")
    var path: String?

    @Option(name: [.customShort("n"), .long], help: "Show at most this many checkpoints.")
    var limit: Int?

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let document = try path.map { try DocumentPath.parsing($0) }
        let store = try global.openStore()
        let history = try store.history(of: document, limit: limit)
        if json {
            return Output.json(try Self.jsonValue(of: history, document: document, in: store))
        }
        for entry in history {
            var line = "\(entry.checkpoint.id.short) \(Self.format(entry.checkpoint.time))"
            if let change = entry.change {
                line += " " + Output.pad(change.rawValue, to: 8)
            }
            print(line + " " + entry.checkpoint.summary)
        }
    }

    /// `document` (null for the whole store) and `checkpoints`, newest first: each
    /// checkpoint's fields, `change` (what it did to the document; null for the whole
    /// store), `changes` (the files it changed against its first parent) and `conflicts`
    /// (what the policies decided, for a merge).
    static func jsonValue(of history: [HistoryEntry], document: DocumentPath?, in store: Store) throws -> JSONValue {
        let checkpoints = try history.map { entry -> JSONValue in
            var fields = Output.jsonValue(of: entry.checkpoint).objectValue ?? [:]
            fields["change"] = Output.text(entry.change?.rawValue)
            fields["changes"] = .array(try store.changes(in: entry.checkpoint).map(Output.jsonValue(of:)))
            fields["conflicts"] = .array(entry.checkpoint.conflicts.map(\.jsonValue))
            return .object(fields)
        }
        return .object(["document": Output.text(document?.description), "checkpoints": .array(checkpoints)])
    }

    /// A time as `2026-11-22 02:12:02Z` (UTC), from seconds since 1970; with `separator`
    /// `T`, as ISO 8601 writes it.
    static func format(_ seconds: Int64, separator: String = " ") -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        // Civil date from a day count (proleptic Gregorian calendar).
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
        return "\(year)-\(two(month))-\(two(day))\(separator)\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60))Z"
    }
}
