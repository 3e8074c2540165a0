import ArgumentParser
import CairnCommandLine
import CairnCore
import CairnSystem
import CairnWeb

#if canImport(Glibc)
import Glibc
#endif

/// `cairn-web`: the server of `cairn web`, which checks its options and runs it. Serves the
/// history of a home's stores on 127.0.0.1 until SIGINT or SIGTERM.
@main
struct CairnWebTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cairn-web",
        abstract: "The server of cairn web: a home's history as pages, on 127.0.0.1 only (run it as cairn web).")

    @Option(help: ArgumentHelp("The folder of the stores (default: $CAIRN_HOME, else ~/.cairn).", valueName: "dir"))
    var home: String?

    @OptionGroup var listening: PortOption

    @Option(help: ArgumentHelp("The user whose store's page the printed address opens; none: the list of stores.", valueName: "uid"))
    var user: String?

    func run() throws {
        let environment = Environment.current
        environment.bootstrapLogging()
        let home = environment.home(home)
        let server = HistoryServer(site: HistorySite(home: home), port: listening.port)
        do {
            try server.serve { port in
                let page = user.map(HistorySite.storePath) ?? "/"
                Self.write("Serving the history of the stores in \(home.root) at http://127.0.0.1:\(port)\(page) (Ctrl-C stops)\n", to: 1)
            }
        } catch {
            Self.write("cairn: \(error.description)\n", to: 2)
            Glibc.exit(1)
        }
    }

    /// A line on stdout (1) or stderr (2), whole, at once.
    static func write(_ line: String, to descriptor: Int32) {
        _ = Array(line.utf8).withUnsafeBytes { Syscalls.writeAll(descriptor, from: $0) }
    }
}
