import ArgumentParser
import CairnCommandLine
import CairnCore

struct Migrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Move the store to a newer version of its schema set, in one checkpoint.",
        discussion: """
            The new set's migrations.json declares its version and how documents move from \
            older versions (moved, fields renamed, removed or set). Devices still on the old \
            version keep syncing: their documents are migrated before each merge.
            """)

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The schema set to move to, by name (remi, …) or the path of its folder.", valueName: "set"))
    var schema: String

    func run() throws {
        let store = try global.openStore()
        let result = try store.upgradeSchemaSet(try SchemaLocator.set(named: schema))
        guard let checkpoint = result.id else {
            print("The store of \(store.uid) already uses \(schema) as it is; nothing to do.")
            return
        }
        print("Checkpoint \(checkpoint.short): \(result.summary)")
    }
}
