import ArgumentParser
import CairnCommandLine
import CairnCore

/// The options every command takes: which home, and which user in it.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The folder of the stores (default: $CAIRN_HOME, else ~/.cairn).", valueName: "dir"))
    var home: String?

    @Option(name: .long, help: ArgumentHelp("Act on this user's store instead of the active one.", valueName: "uid"))
    var user: String?

    /// The home of `--home`, else of the environment, with the environment's configuration.
    var resolvedHome: Home { Environment.current.home(home) }

    /// The store of `--user`, else of the active user.
    func openStore() throws -> Store {
        try resolvedHome.openStore(user)
    }
}
