import ArgumentParser
import CairnCore
import CairnMerge

/// `cairn content get PATH`: a content document, read offline from the downloaded version.
struct ContentGet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print a content document from the downloaded item (marks the item read); with ls, its documents.",
        discussion: "PATH is COLLECTION/ITEM or a document below it: assessments/a1, assessments/a1/questions/q-001.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The document's path.", valueName: "path"))
    var path: String

    @Flag(help: "List the item's documents instead (PATH is COLLECTION/ITEM).")
    var list = false

    func run() throws {
        let document = try DocumentPath.parsing(path)
        let cache = ContentCache(home: global.resolvedHome)
        if list {
            let names = document.description.split(separator: "/").map(String.init)
            guard names.count == 2 else {
                throw CairnError(.invalidInput, "--list takes COLLECTION/ITEM, like assessments/a1")
            }
            for found in try cache.documents(collection: names[0], item: names[1]) { print(found) }
            return
        }
        guard let value = try cache.document(at: document) else {
            throw CairnError(
                .notFound,
                "the downloaded \(document.description.split(separator: "/").prefix(2).joined(separator: "/")) holds no document \(document) (cairn content get --list COLLECTION/ITEM lists them)"
            )
        }
        Output.write(value.canonicalBytes())
    }
}
