import ArgumentParser
import CairnCore

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create the store of a user (and make it active if none is).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The user id: the store will hold users/<uid> and everything under it.")
    var uid: String

    @Option(help: ArgumentHelp("The app's schema set, by name (life-in-uk, …) or the path of its folder (./schema/my-app): documents are checked against it and merge by its policies.", valueName: "set"))
    var schema: String?

    @Option(help: ArgumentHelp("The remote to sync with (see cairn remote set).", valueName: "url"))
    var remote: String?

    func run() throws {
        let home = global.resolvedHome
        let set = try schema.map { try SchemaLocator.set(named: $0) }
        let remoteURL = try remote.map { (text) throws(CairnError) in try RemoteURL(text) }
        let store = try home.createStore(uid, schemaSet: set, mergeDriver: SchemaLocator.executable())
        if let remoteURL { try store.setRemote(remoteURL) }
        let active = try home.activeUser() == uid ? " (active)" : ""
        print("Created the store of user \(uid) at \(store.folder)\(active)")
        if let remoteURL { print("It syncs with \(remoteURL) (cairn sync)") }
    }
}
