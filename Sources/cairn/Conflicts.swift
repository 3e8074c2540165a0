import ArgumentParser
import CairnCore
import CairnMerge

struct Conflicts: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conflicts",
        abstract: "List what the policies decided in merges, with the replaced values.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A merge commit (default: every merge of the history, newest first).")
    var revision: String?

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let store = try global.openStore()
        let found = try store.conflicts(at: revision)
        if json {
            return Output.json(Self.jsonValue(of: found))
        }
        guard found.contains(where: { !$0.records.isEmpty }) else {
            print(revision == nil ? "No conflict was decided in this store's merges." : "No conflict was decided in \(revision!).")
            return
        }
        for (checkpoint, records) in found where !records.isEmpty {
            print("\(checkpoint.id.short) \(ISO8601Stamp.text(seconds: checkpoint.time, separator: " ")) \(checkpoint.summary)")
            for record in records {
                print("  " + record.description)
            }
        }
    }

    /// `merges`, newest first: each merge's `checkpoint` and its `conflicts` (the records as
    /// merge commits carry them). Without a revision only the merges that decided something;
    /// with one, that checkpoint, its `conflicts` possibly empty.
    static func jsonValue(of found: [(checkpoint: CairnCore.Checkpoint, records: [ConflictRecord])]) -> JSONValue {
        .object([
            "merges": .array(
                found.map { merge in
                    .object(["checkpoint": Output.jsonValue(of: merge.checkpoint), "conflicts": .array(merge.records.map(\.jsonValue))])
                })
        ])
    }
}
