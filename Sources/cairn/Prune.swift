import ArgumentParser
import CairnCore
import CairnMerge

struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Apply the schema set's retention: remove documents older than the latest N it keeps.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let result = try global.openStore().prune()
        guard let checkpoint = result.id else {
            print("Nothing to prune.")
            return
        }
        let count = result.changes.filter { DocumentPath(fileName: $0.path) != nil }.count
        print(
            "Checkpoint \(checkpoint.short): \(count) document\(count == 1 ? "" : "s") removed by the retention of the schema set (cairn log -n 1 lists them)"
        )
    }
}
