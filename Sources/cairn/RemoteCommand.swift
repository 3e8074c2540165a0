import ArgumentParser
import CairnCore

struct RemoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote",
        abstract: "Show or set the remote the store syncs with.",
        subcommands: [Show.self, Set.self],
        defaultSubcommand: Show.self)

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show the remote and the checkpoints not pushed to it.")

        @OptionGroup var global: GlobalOptions

        func run() throws {
            let store = try global.openStore()
            guard let remote = try store.remote() else {
                print("No remote; set one with: cairn remote set URL")
                return
            }
            print(remote)
        }
    }

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set the remote (a password in the URL is used by no later command and never stored).")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "A path or file:// URL of a bare repository, http(s)://, ssh:// or git://.")
        var url: String

        @Option(
            name: .customLong("token-command"),
            help: ArgumentHelp(
                "A command that prints the user's ID token (as git's credential helpers print passwords), run before each sync and again, with CAIRN_TOKEN_FRESH=1, when the server refuses the token; kept in the store, never the token. An empty one forgets it.",
                valueName: "command"))
        var tokenCommand: String?

        func run() throws {
            let store = try global.openStore()
            let remote = try RemoteURL(url)
            try store.setRemote(remote)
            if let tokenCommand { try store.setTokenCommand(tokenCommand) }
            let note = remote.password != nil ? " (the password was not stored: give it in CAIRN_PASSWORD when syncing)" : ""
            let readOnly = remote.isReadOnly ? " (read-only: cairn clone works, cairn sync refuses to push there)" : ""
            print("The store of user \(store.uid) syncs with \(remote)\(note)\(readOnly)")
        }
    }
}
