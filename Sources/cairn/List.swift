import ArgumentParser
import CairnCore
import CairnMerge

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the document IDs of a collection, one a line.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The collection path, like users/u1/books.")
    var collection: String

    func run() throws {
        let path = try CollectionPath.parsing(collection)
        for id in try global.openStore().list(path) {
            print(id)
        }
    }
}
