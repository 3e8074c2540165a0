import ArgumentParser
import CairnCore
import CairnMerge

struct AssetRemove: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Clear a document's asset field; the next sync deletes the bytes from the server and the devices.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The document path, like users/u1/readingSessions/s1.")
    var path: String

    @Argument(help: "The asset field.")
    var field: String

    func run() throws {
        let document = try DocumentPath.parsing(path)
        try global.openStore().removeAsset(field, of: document)
    }
}
