import ArgumentParser
import CairnCore
import CairnMerge
import CairnSystem

struct Clone: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clone",
        abstract: "Restore a user's store from a remote onto this machine.")

    @OptionGroup var global: GlobalOptions
    @OptionGroup var transfer: TransferOptions

    @Argument(help: "The remote: a path or file:// URL of a bare repository, http(s)://, ssh:// or git://.")
    var url: String

    @Option(help: ArgumentHelp("The key file of an encrypted store (mode 0600); default: CAIRN_KEY_FILE, CAIRN_KEY.", valueName: "file"))
    var keyFile: String?

    @Option(
        name: .customLong("token-command"),
        help: ArgumentHelp(
            "A command that prints the user's ID token, for a server that takes tokens; kept in the store for its syncs (default token: CAIRN_TOKEN).",
            valueName: "command"))
    var tokenCommand: String?

    func run() throws {
        var home = global.resolvedHome
        if keyFile != nil { home = try KeyFiles.home(home, keyFile: keyFile, creating: false).home }
        let remote = try RemoteURL(url)
        let store = try home.cloneStore(
            from: remote, uid: global.user, options: transfer.syncOptions(tokenCommand: tokenCommand),
            mergeDriver: Syscalls.executablePath())
        if let tokenCommand { try store.setTokenCommand(tokenCommand) }
        let documents = try store.documentCount()
        let active = try home.activeUser() == store.uid ? " (active)" : ""
        print(
            "Restored the store of user \(store.uid) from \(remote) at \(store.folder)\(active): \(documents) document\(documents == 1 ? "" : "s")"
        )
        for correction in store.correctedOnRestore {
            print("  corrected " + correction.described(verb: "was") + " (cairn sync pushes the correction)")
        }
    }
}
