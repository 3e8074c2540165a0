import ArgumentParser
import CairnCore

/// `cairn content rm NAME ITEM`.
struct ContentRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete a downloaded item from this device (the responses that answer it stay in the stores).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The collection.", valueName: "name"))
    var name: String

    @Argument(help: ArgumentHelp("The item's ID.", valueName: "item"))
    var item: String

    func run() throws {
        let cache = ContentCache(home: global.resolvedHome)
        let removed = try cache.remove(collection: name, item: item)
        let pending = try cache.usage().pending[removed.key] ?? 0
        let note = pending > 0 ? "; its \(pending) pending response(s) stay in the store and sync as before" : ""
        print("Removed \(removed.key) (version \(removed.version), \(ContentCache.shown(removed.sizeBytes)))\(note)")
    }
}
