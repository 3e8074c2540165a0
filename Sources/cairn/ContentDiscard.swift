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
            stay in the store's history (cairn log, cairn restore). Then the item is \
            downloaded again, when the server still has it, so that the new version is answered.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var transfer: TransferOptions

    @Argument(help: "The content's collection (assessments).")
    var name: String

    @Argument(help: "The item (a1).")
    var item: String

    @Option(help: ArgumentHelp("The collection's content set, to check the new version (as for download).", valueName: "set"))
    var schema: String?

    func run() throws {
        let store = try global.openStore()
        let set = try ContentDownloadCommand.contentSet(schema, collection: name)
        let result = try store.decide(.discard, collection: name, item: item)
        print("Checkpoint \(result.id?.short ?? "-"): discarded the answers to \(name)/\(item) (\(result.summary)); they stay in history")
        for change in result.changes {
            print("  \(change.kind.rawValue) \(change.displayPath)")
        }
        do {
            let download = try ContentCache(home: global.resolvedHome).download(
                collection: name, item: item, for: store, schemaSet: set, options: transfer.syncOptions(tokenCommand: store.tokenCommand()))
            print("Downloaded \(download.item.key) version \(download.item.version) (\(download.item.commit.short)): answer it anew")
        } catch let error as CairnError where error.code == .notFound {
            // Gone from the server: the copy held would only pin new answers to a lost version.
            let cache = ContentCache(home: global.resolvedHome)
            if (try? cache.item(collection: name, item: item)) != nil {
                _ = try? cache.remove(collection: name, item: item)
                print("\(name)/\(item) is no longer on the server: removed from this device")
            } else {
                print("\(name)/\(item) is no longer on the server: nothing to download")
            }
        } catch let error as CairnError {
            // The decision is recorded: that is the command's work, so it succeeds.
            Output.error(
                "cairn: the answers were discarded, but \(name)/\(item) could not be downloaded again (\(error.message)); download it with: cairn content download \(name) \(item)\n"
            )
        }
    }
}
