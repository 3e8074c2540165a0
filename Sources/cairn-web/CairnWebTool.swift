import ArgumentParser
import CairnCommandLine
import CairnCore
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

    @Option(help: ArgumentHelp("The port on 127.0.0.1 to listen on; 0 for any free one.", valueName: "port"))
    var port: Int = 7007

    @Option(help: ArgumentHelp("The user whose store's page the printed address opens (default: the active user).", valueName: "uid"))
    var user: String?

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be a port number from 0 to 65535 (0 for any free one), not \(port)")
        }
    }

    func run() throws {
        let environment = Environment.current
        environment.bootstrapLogging()
        let home = environment.home(home)
        let uid = user ?? (try? home.activeUser()) ?? nil
        let server = HistoryServer(site: HistorySite(home: home), port: port)
        do {
            try server.serve { port in
                let page = uid.map(HistorySite.storePath) ?? "/"
                let line = "Serving the history of the stores in \(home.root) at http://127.0.0.1:\(port)\(page) (Ctrl-C stops)\n"
                _ = Array(line.utf8).withUnsafeBytes { Syscalls.writeAll(1, from: $0) }
            }
        } catch {
            let line = "cairn: \(error.description)\n"
            _ = Array(line.utf8).withUnsafeBytes { Syscalls.writeAll(2, from: $0) }
            Glibc.exit(1)
        }
    }
}
