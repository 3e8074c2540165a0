import ArgumentParser
import CairnCore
import CairnMerge

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete a document; with -r, also every document of its subcollections.")

    @OptionGroup var global: GlobalOptions

    @Flag(name: .short, help: "Delete the subcollections too (a cascade delete).")
    var recursive = false

    @Argument(help: "The document path, like users/u1/books/b1.")
    var path: String

    func run() throws {
        let document = try DocumentPath.parsing(path)
        let removed = try global.openStore().delete(document, recursive: recursive)
        if recursive {
            print("Removed \(removed.count) document\(removed.count == 1 ? "" : "s")")
        }
    }
}
