import ArgumentParser
import CairnCore

/// `cairn content submit-anyway NAME ITEM`: the held answers to an updated item go as they are.
struct ContentSubmitAnyway: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit-anyway",
        abstract: "Let the documents held for an updated item go as they are, at the next sync.",
        discussion: """
            Records the decision in a checkpoint (trailer Cairn-Content-Decision: submit-anyway \
            NAME/ITEM <pinned commit>); the next sync pushes the documents the last one held. \
            Refused for an item deleted on the server. No network is needed.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The content's collection (assessments).")
    var name: String

    @Argument(help: "The item (a1).")
    var item: String

    func run() throws {
        let result = try global.openStore().decide(.submitAnyway, collection: name, item: item)
        print("Checkpoint \(result.id?.short ?? "-"): submit anyway the answers to \(name)/\(item); cairn sync sends them")
    }
}
