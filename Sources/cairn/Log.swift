import ArgumentParser
import CairnCore
import CairnMerge

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "List the checkpoints of the store, or those that changed one document.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A document path: only the checkpoints that changed it.")
    var path: String?

    @Option(name: [.customShort("n"), .long], help: "Show at most this many checkpoints.")
    var limit: Int?

    @Flag(
        name: [.customShort("p"), .customLong("patch")],
        help: "Show what each checkpoint changed, value by value (as cairn diff; a merge against its first parent).")
    var patch = false

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let document = try path.map { try DocumentPath.parsing($0) }
        let store = try global.openStore()
        let history = try store.history(of: document, limit: limit)
        if json {
            return Output.json(try Self.jsonValue(of: history, document: document, patch: patch, in: store))
        }
        for entry in history {
            var line = "\(entry.checkpoint.id.short) \(ISO8601Stamp.text(seconds: entry.checkpoint.time, separator: " "))"
            if let change = entry.change {
                line += " " + Output.pad(change.rawValue, to: 8)
            }
            print(line + " " + entry.checkpoint.summary)
            if patch {
                Output.printDiff(try store.diff(in: entry.checkpoint, under: document?.description), indent: "    ")
            }
        }
    }

    /// `document` (null for the whole store) and `checkpoints`, newest first: each
    /// checkpoint's fields, `change` (what it did to the document; null for the whole
    /// store), `changes` (the files it changed against its first parent) and `conflicts`
    /// (what the policies decided, for a merge); with `patch`, `diff` too: the documents it
    /// changed, value by value (as `cairn diff --json` lists them).
    static func jsonValue(of history: [HistoryEntry], document: DocumentPath?, patch: Bool = false, in store: Store) throws -> JSONValue {
        let checkpoints = try history.map { entry -> JSONValue in
            var fields = Output.jsonValue(of: entry.checkpoint).objectValue ?? [:]
            fields["change"] = Output.text(entry.change?.rawValue)
            fields["changes"] = .array(try store.changes(in: entry.checkpoint).map(Output.jsonValue(of:)))
            fields["conflicts"] = .array(entry.checkpoint.conflicts.map(\.jsonValue))
            if patch {
                fields["diff"] = .array(try store.diff(in: entry.checkpoint, under: document?.description).map(Output.jsonValue(of:)))
            }
            return .object(fields)
        }
        return .object(["document": Output.text(document?.description), "checkpoints": .array(checkpoints)])
    }
}
