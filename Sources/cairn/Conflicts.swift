import ArgumentParser
import CairnCore
import CairnMerge

struct Conflicts: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List what the policies decided in merges, with the replaced values.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "A merge commit (default: every merge of the history, newest first).")
    var revision: String?

    func run() throws {
        let store = try global.openStore()
        let found = try store.conflicts(at: revision)
        guard found.contains(where: { !$0.records.isEmpty }) else {
            print(revision == nil ? "No conflict was decided in this store's merges." : "No conflict was decided in \(revision!).")
            return
        }
        for (checkpoint, records) in found where !records.isEmpty {
            print("\(checkpoint.id.short) \(Log.format(checkpoint.time)) \(checkpoint.summary)")
            for record in records {
                print("  " + record.description)
            }
        }
    }
}
