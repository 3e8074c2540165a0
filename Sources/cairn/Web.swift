import ArgumentParser
import CairnCommandLine
import CairnCore
import CairnSystem

struct Web: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web",
        abstract: "Serve the history of the home's stores as pages in the browser, on 127.0.0.1 only.",
        discussion: """
            A page per store: its timeline of checkpoints and merges per device; a page per \
            checkpoint with what it changed and what its merge decided; a page per document \
            with its history value by value, where each value comes from, and plots of its \
            numbers; a page per collection. Read-only; every page is drawn from the store as it \
            is when asked for, and fetches nothing from elsewhere. Runs until Ctrl-C. The \
            server is the program cairn-web, installed beside cairn.
            """)

    @OptionGroup var global: GlobalOptions

    @OptionGroup var listening: PortOption

    /// The server's program, beside this one.
    static let program = "cairn-web"

    /// Checks the store asked for, then becomes `cairn-web` (same process, same signals),
    /// which serves until Ctrl-C.
    func run() throws {
        let home = global.resolvedHome
        var arguments = [Self.program, "--home", home.root, "--port", String(listening.port)]
        // The store asked for must open; the active one names the printed address's page
        // when it does.
        if let user = global.user {
            arguments += ["--user", try home.openStore(user).uid]
        } else if let active = try? home.activeUser(), let store = try? home.openStore(active) {
            arguments += ["--user", store.uid]
        }
        guard let tool = Syscalls.executablePath() else {
            throw CairnError(.io, "cannot find the path of the running cairn tool (/proc/self/exe), beside which \(Self.program) is")
        }
        let server = FileSystem.parent(of: tool) + "/" + Self.program
        let failure = Syscalls.execute(server, arguments: arguments)
        throw CairnError(
            .notFound,
            "cannot run \(server): \(failure); install \(Self.program) beside cairn (swift build --product \(Self.program) builds it)")
    }
}
