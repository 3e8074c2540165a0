import ArgumentParser
import CairnCore

/// The keys of an encrypted store: which key seals it, rotation, and git's text converter.
struct KeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "key",
        abstract: "The keys of an encrypted store.",
        subcommands: [KeyShow.self, KeyRotate.self, KeyTextconv.self])
}
