import ArgumentParser
import CairnCore
import CairnMerge

struct AssetGet: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Write an asset's bytes (downloaded from the remote the first time it is read).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The document path, like users/u1/readingSessions/s1.")
    var path: String

    @Argument(help: "The asset field.")
    var field: String

    @Option(name: .long, help: ArgumentHelp("A checkpoint: an id, HEAD~2, main.", valueName: "rev"))
    var at: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("A new file to write the bytes to (default: stdout).", valueName: "file"))
    var output: String?

    @Flag(name: .customLong("print-path"), help: "Print the path of the device's copy instead of the bytes.")
    var printPath = false

    func run() throws {
        let document = try DocumentPath.parsing(path)
        if let output, FileSystem.kind(output) != nil {
            throw CairnError(.alreadyExists, "\(output) exists; give a new file (nothing was written)")
        }
        let file = try global.openStore().assetFile(field, of: document, revision: at)
        if printPath {
            print(file)
            return
        }
        guard let bytes = try FileSystem.read(file) else {
            throw CairnError(.notFound, "the device's copy \(file) disappeared while it was read; run the command again")
        }
        if let output {
            try FileSystem.writeAtomically(bytes, to: output)
        } else {
            Output.write(bytes)
        }
    }
}
