import ArgumentParser
import CairnCore

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create the store of a user (and make it active if none is).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The user id: the store will hold users/<uid> and everything under it.")
    var uid: String

    func run() throws {
        let home = global.resolvedHome
        let store = try home.createStore(uid)
        let active = try home.activeUser() == uid ? " (active)" : ""
        print("Created the store of user \(uid) at \(store.folder)\(active)")
    }
}
