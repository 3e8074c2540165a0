import ArgumentParser
import CairnCommandLine
import CairnCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

struct MergeDriver: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-driver",
        abstract: "Merge one document as git's merge driver (merge.cairn.driver = \"cairn merge-driver %O %A %B %P\").",
        discussion: "The result is written over OURS; exit 0 when merged, 1 when it cannot be (git then reports a conflict).")

    @Argument(help: "The common ancestor's version (%O); empty when both sides added the document.")
    var base: String

    @Argument(help: "The current branch's version (%A); the result is written here.")
    var ours: String

    @Argument(help: "The other branch's version (%B).")
    var theirs: String

    @Argument(help: "The document's file in the store (%P), like users/u1/books/b1.json.")
    var path: String

    func run() throws {
        let store = try Store.open(folder: FileManager.default.currentDirectoryPath, configuration: Environment.current.configuration)
        for record in try store.mergeDriver(base: base, ours: ours, theirs: theirs, path: path) {
            Output.error("cairn: \(record)\n")
        }
    }
}
