import ArgumentParser
import CairnCore

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

    @Option(help: ArgumentHelp("The port on 127.0.0.1 to listen on; 0 for any free one.", valueName: "port"))
    var port: Int = 7007

    /// The server's program, beside this one.
    static let program = "cairn-web"

    func validate() throws {
        guard (0...65535).contains(port) else {
            throw ValidationError("--port must be a port number from 0 to 65535 (0 for any free one), not \(port)")
        }
    }

    /// Checks the store asked for, then becomes `cairn-web` (same process, same signals),
    /// which serves until Ctrl-C.
    func run() throws {
        let home = global.resolvedHome
        var arguments = [Self.program, "--home", home.root, "--port", String(port)]
        if let user = global.user {
            arguments += ["--user", try home.openStore(user).uid]
        }
        guard let tool = Syscalls.executablePath() else {
            throw CairnError(.io, "cannot find the path of the running cairn tool (/proc/self/exe), beside which \(Self.program) is")
        }
        let server = FileSystem.parent(of: tool) + "/" + Self.program
        let failure = Syscalls.execute(server, arguments: arguments)
        throw CairnError(.notFound, "cannot run \(server): \(failure); install \(Self.program) beside cairn (swift build --product \(Self.program) builds it)")
    }
}
