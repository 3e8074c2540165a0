import ArgumentParser
import CairnToolTestSupport
import Testing

@testable import cairn

/// Every command of the tool says its own name. A command without one is named after its
/// Swift type, which the argument parser works out through the runtime's type description
/// on every start, for every command of the tree: a search of the binary's conformance
/// records that costs each `cairn` process milliseconds before any work.
@Suite(.historiesVerified) struct CommandNamesTests {
    /// The commands of the tree below `command`, itself included.
    static func tree(_ command: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
        [command] + command.configuration.subcommands.flatMap { tree($0) }
    }

    @Test func everyCommandOfTheTreeNamesItself() {
        let commands = Self.tree(Cairn.self)
        #expect(commands.count > 40)
        let unnamed = commands.filter { $0.configuration.commandName == nil }.map { "\($0)" }
        #expect(unnamed.isEmpty, "commands named after their type: \(unnamed)")
    }
}
