import ArgumentParser
import CairnCore
import CairnMerge

struct Checkpoint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkpoint",
        abstract: "Commit the documents written since the last checkpoint.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .shortAndLong, help: "The commit message (default: a summary of the changes).")
    var message: String?

    @Flag(help: "Also find hand edits of the files (compares every file; slower); their derived fields are computed again.")
    var scan = false

    func run() throws {
        let result = try global.openStore().checkpoint(message: message, scan: scan)
        guard let checkpoint = result.id else {
            print("Nothing to checkpoint.")
            return
        }
        print("Checkpoint \(checkpoint.short): \(result.summary)")
        for correction in result.corrections {
            print("  corrected " + correction.described(verb: "was"))
        }
    }
}
