import ArgumentParser
import CairnCore
import CairnMerge
import CairnSystem

struct List: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the document IDs of a collection, one a line.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The collection path, like users/u1/books.")
    var collection: String

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let path = try CollectionPath.parsing(collection)
        let store = try global.openStore()
        let ids = try store.list(path)
        if json {
            return Output.json(try Self.jsonValue(of: ids, in: path, store: store))
        }
        for id in ids {
            print(id)
        }
    }

    /// `collection` and `documents`, sorted by ID: each one's `id`, `path`, `size` (the bytes
    /// of its canonical file) and `schema` (the file of its kind in the store's set; null
    /// when none describes it).
    static func jsonValue(of ids: [String], in collection: CollectionPath, store: Store) throws -> JSONValue {
        let set = try store.schemaSet()
        let documents = try ids.map { id -> JSONValue in
            let document = try collection.document(id)
            let size = (try? Syscalls.status(of: store.folder + "/" + document.fileName, followingLinks: false).get())?.size
            return .object([
                "id": .string(id), "path": .string(document.description),
                "size": size.map { .integer(Int64($0)) } ?? .null,
                "schema": Output.text(set.kind(of: document)?.file),
            ])
        }
        return .object(["collection": .string(collection.description), "documents": .array(documents)])
    }
}
