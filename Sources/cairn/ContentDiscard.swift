import ArgumentParser
import CairnCore

/// `cairn content discard NAME ITEM`: the held answers to an item go back to the remote's version.
struct ContentDiscard: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "discard",
        abstract: "Put the documents held for an updated or deleted item back to the remote's version.",
        discussion: """
            Every held document pinned to the item's old version goes back to the remote's \
            version (deleted when the remote has none), in one checkpoint (trailer \
            Cairn-Content-Decision: discard NAME/ITEM <pinned commit>). The discarded answers \
            stay in the store's history (cairn log, cairn restore). Download the item again \
            before answering anew.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The content's collection (assessments).")
    var name: String

    @Argument(help: "The item (a1).")
    var item: String

    func run() throws {
        let result = try global.openStore().decide(.discard, collection: name, item: item)
        print("Checkpoint \(result.id?.short ?? "-"): discarded the answers to \(name)/\(item) (\(result.summary)); they stay in history")
        for change in result.changes {
            print("  \(change.kind.rawValue) \(change.displayPath)")
        }
    }
}
