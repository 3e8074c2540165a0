import ArgumentParser
import CairnCommandLine
import CairnCore
import CairnSystem

struct Init: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create the store of a user (and make it active if none is).")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The user id: the store will hold users/<uid> and everything under it.")
    var uid: String

    @Option(
        help: ArgumentHelp(
            "The app's schema set, by name (life-in-uk, …) or the path of its folder (./schema/my-app): documents are checked against it and merge by its policies.",
            valueName: "set"))
    var schema: String?

    @Option(help: ArgumentHelp("The remote to sync with (see cairn remote set).", valueName: "url"))
    var remote: String?

    @Flag(help: "Encrypt the store's documents at rest, with the key of --key-file (or CAIRN_KEY_FILE, CAIRN_KEY).")
    var encrypted = false

    @Option(
        help: ArgumentHelp(
            "With --encrypted: the key file (mode 0600). A new key is written there when the file does not exist.", valueName: "file"))
    var keyFile: String?

    func run() throws {
        var home = global.resolvedHome
        let set = try schema.map { try SchemaLocator.set(named: $0) }
        let remoteURL = try remote.map { (text) throws(CairnError) in try RemoteURL(text) }
        var created: String?
        if encrypted {
            (home, created) = try KeyFiles.home(home, keyFile: keyFile, creating: true)
        } else if keyFile != nil {
            throw ValidationError("--key-file goes with --encrypted; a plain store has no key")
        }
        let store = try home.createStore(uid, schemaSet: set, mergeDriver: Syscalls.executablePath(), encrypted: encrypted)
        if let created { print("Wrote a new key to \(created) (mode 0600): keep a copy; without it the store cannot be read") }
        if let remoteURL { try store.setRemote(remoteURL) }
        let active = try home.activeUser() == uid ? " (active)" : ""
        print("Created the store of user \(uid) at \(store.folder)\(active)")
        if let remoteURL { print("It syncs with \(remoteURL) (cairn sync)") }
    }
}
