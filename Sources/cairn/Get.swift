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
        commandName: "get",
        abstract: "Print a document as canonical JSON, as it is now or at a checkpoint.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The document path, like users/u1/books/b1.")
    var path: String

    @Option(name: .long, help: ArgumentHelp("A checkpoint: an id, HEAD~2, main.", valueName: "rev"))
    var at: String?

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let document = try DocumentPath.parsing(path)
        let store = try global.openStore()
        if json {
            return Output.json(try jsonValue(of: document, in: store))
        }
        let bytes: [UInt8]?
        if let at {
            bytes = try store.document(at: document, revision: at)?.canonicalBytes()
        } else {
            bytes = try store.canonicalBytes(at: document)
        }
        guard let bytes else { throw notFound(document) }
        Output.write(bytes)
    }

    /// `path`, `revision` (as `--at` gave it; null for the document as it is now),
    /// `checkpoint` (the revision's full id; null without `--at`) and `document`.
    func jsonValue(of document: DocumentPath, in store: Store) throws -> JSONValue {
        let checkpoint = try at.map { try store.checkpoint($0) }
        let value = try checkpoint.map { try store.document(at: document, revision: $0.id.hex) } ?? store.document(at: document)
        guard let value else { throw notFound(document) }
        return .object([
            "path": .string(document.description), "revision": Output.text(at), "checkpoint": Output.id(checkpoint?.id),
            "document": value,
        ])
    }

    private func notFound(_ document: DocumentPath) -> CairnError {
        let when = at.map { " at \($0)" } ?? ""
        return CairnError(.notFound, "there is no document at \(document)\(when)")
    }
}
