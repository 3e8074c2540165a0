import ArgumentParser
import CairnCore
import CairnMerge

struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Take documents back to the remote's version (or a checkpoint's), in a new checkpoint.",
        discussion: """
            The way out of a push the server refused: the documents it named go back to their \
            version on the remote as of the last sync — or are removed where the remote lacks \
            them — while every other document, unpushed checkpoints included, stays as it is. \
            The refused checkpoints stay in the history, undone by the new one. An append-only \
            document (an exam attempt) the remote never received may go; one the remote holds \
            only ever goes back to the remote's version. --source takes the documents from a \
            checkpoint instead (HEAD~1, an id, see cairn log). Pending writes are checkpointed \
            first.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("Take the documents from this revision instead of the remote's version.", valueName: "rev"))
    var source: String?

    @Argument(help: "The document paths, like users/u1/examAttempts/a2.")
    var paths: [String]

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("name at least one document to restore") }
    }

    func run() throws {
        var documents: [DocumentPath] = []
        for path in paths { documents.append(try DocumentPath.parsing(path)) }
        let result = try global.openStore().restore(documents, from: source)
        guard result.restored > 0 else {
            let what = documents.count == 1 ? "\(documents[0]) is" : "the documents are"
            let version =
                result.fromRemote ? "the remote's version" : "\(documents.count == 1 ? "its" : "their") version at \(result.sourceName)"
            print("Nothing to restore: \(what) \(version) already.")
            return
        }
        if let checkpoint = result.checkpoint.id {
            print("Checkpoint \(checkpoint.short): \(result.checkpoint.summary)")
        }
        let count = "\(result.restored) document\(result.restored == 1 ? "" : "s")"
        guard let checkpoint = result.restore.id else {
            print("Restored \(count) to \(result.destination); the last checkpoint held that version already")
            return
        }
        print("Restored \(count) to \(result.destination) in checkpoint \(checkpoint.short):")
        for change in result.restore.changes {
            print("  " + Output.pad(change.kind.rawValue, to: 9) + " " + change.displayPath)
        }
    }
}
