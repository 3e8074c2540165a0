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
        abstract: "Write a document (a JSON object) from a file or stdin, in canonical form.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The document path, like users/u1/books/b1.")
    var path: String

    @Argument(help: "A JSON file; without it the document is read from stdin.")
    var file: String?

    func run() throws {
        let document = try DocumentPath.parsing(path)
        let bytes = try Input.read(file, limit: JSONLimits.documents.maxBytes)
        let store = try global.openStore()
        try store.put(json: bytes, at: document)
    }
}
