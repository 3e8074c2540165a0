import ArgumentParser
import CairnCore
import CairnMerge
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a document as canonical JSON, as it is now or at a checkpoint.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The document path, like users/u1/books/b1.")
    var path: String

    @Option(name: .long, help: ArgumentHelp("A checkpoint: an id, HEAD~2, main.", valueName: "rev"))
    var at: String?

    func run() throws {
        let document = try DocumentPath.parsing(path)
        let store = try global.openStore()
        let bytes: [UInt8]?
        if let at {
            bytes = try store.document(at: document, revision: at)?.canonicalBytes()
        } else {
            bytes = try store.canonicalBytes(at: document)
        }
        guard let bytes else {
            let when = at.map { " at \($0)" } ?? ""
            throw CairnError(.notFound, "there is no document at \(document)\(when)")
        }
        Output.write(bytes)
    }
}
