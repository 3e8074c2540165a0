import ArgumentParser
import CairnCore
import CairnMerge

struct AssetAdd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Attach a file to an existing document as the asset of one of its fields.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The document path, like users/u1/readingSessions/s1.")
    var path: String

    @Argument(help: "The asset field its schema declares (x-cairn.assets).")
    var field: String

    @Argument(help: "The file.")
    var file: String

    @Option(name: .long, help: ArgumentHelp("Its media type, kept in the document.", valueName: "type/subtype"))
    var mediaType: String?

    func run() throws {
        let document = try DocumentPath.parsing(path)
        let reference = try global.openStore().addAsset(file: file, to: field, of: document, mediaType: mediaType)
        print("\(document) \(field): \(reference.oid) (\(reference.size) bytes)")
    }
}
