import ArgumentParser
import CairnCore
import CairnMerge

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct Put: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "put",
        abstract: "Write a document (a JSON object) from a file or stdin, in canonical form.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The document path, like users/u1/books/b1.")
    var path: String

    @Argument(help: "A JSON file; without it the document is read from stdin.")
    var file: String?

    @Option(
        name: .long, parsing: .singleValue,
        help: ArgumentHelp("Attach a file as the asset of an asset field (repeatable).", valueName: "field=file"))
    var asset: [String] = []

    func run() throws {
        let document = try DocumentPath.parsing(path)
        var attachments: [AssetAttachment] = []
        for given in asset {
            guard let equals = given.firstIndex(of: "="), equals != given.startIndex, given.index(after: equals) != given.endIndex else {
                throw CairnError(
                    .invalidInput, "--asset \(given): give FIELD=FILE, like --asset audioAsset=session.m4a; nothing was written")
            }
            attachments.append(AssetAttachment(field: String(given[..<equals]), file: String(given[given.index(after: equals)...])))
        }
        let bytes = try Input.read(file, limit: JSONLimits.documents.maxBytes)
        let store = try global.openStore()
        if attachments.isEmpty {
            try store.put(json: bytes, at: document)
            return
        }
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            throw CairnError(.invalidInput, "\(document): \(error.description); nothing was written", cause: error)
        }
        try store.put(value, at: document, attaching: attachments)
    }
}
