import ArgumentParser
import CairnCore
import CairnMerge

struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show the documents that differ between two checkpoints, or a checkpoint and the working tree, value by value.",
        discussion: """
            With no revision: the writes not checkpointed yet, against the last checkpoint. \
            With one: that checkpoint against the working tree. With two: the first against \
            the second. A path (users/…) keeps to one document, or a collection and below.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: ArgumentHelp(
            "At most two revisions (an id, HEAD~2, main), then at most one path (users/u1/books/b1).",
            valueName: "rev|path"))
    var arguments: [String] = []

    @Flag(help: "With the working tree: compare every file, so hand edits show too (as status --scan).")
    var scan = false

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let (revisions, path) = try Self.split(arguments)
        let store = try global.openStore()
        let from = revisions.first ?? "HEAD"
        let to = revisions.count == 2 ? revisions[1] : nil
        let diffs = try store.diff(from: from, to: to, scan: scan, under: path)
        if json {
            return Output.json(
                .object([
                    "from": Output.id(try store.checkpoint(from).id),
                    "to": Output.id(try to.map { try store.checkpoint($0).id }),
                    "path": Output.text(path),
                    "documents": .array(diffs.map(Output.jsonValue(of:))),
                ]))
        }
        Output.printDiff(diffs)
    }

    /// The revisions and the path among the arguments: a path starts with `users/`, and comes
    /// last; anything else is a revision.
    static func split(_ arguments: [String]) throws(CairnError) -> (revisions: [String], path: String?) {
        var revisions: [String] = []
        var path: String?
        for argument in arguments {
            guard path == nil else {
                throw CairnError(
                    .invalidInput, "\"\(argument)\" comes after the path \(path!): give at most two revisions, then at most one path")
            }
            if argument == "users" || argument.hasPrefix("users/") {
                path = try Self.checked(argument)
            } else {
                guard revisions.count < 2 else {
                    throw CairnError(
                        .invalidInput, "\"\(argument)\" is a third revision: give at most two, then at most one path (users/…)")
                }
                revisions.append(argument)
            }
        }
        return (revisions, path)
    }

    /// `text` when it is a document or a collection path.
    private static func checked(_ text: String) throws(CairnError) -> String {
        if (try? DocumentPath(text)) != nil || (try? CollectionPath(text)) != nil || text == "users" { return text }
        _ = try DocumentPath.parsing(text)
        return text
    }
}
