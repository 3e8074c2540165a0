import ArgumentParser
import CairnCore
import CairnServer

struct ServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Set up the server side: per-user bare repositories guarded by Cairn's hook.",
        subcommands: [Init.self])

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create FOLDER/<uid>.git for each user, with Cairn's pre-receive hook.",
            discussion: """
                Serve FOLDER with any smart-HTTP git server (git http-backend behind a web \
                server) that lets user <uid> fetch and push <uid>.git only. The hook runs this \
                cairn binary: keep it where it is, or run server init again elsewhere.
                """)

        @Argument(help: "The folder of the repositories (created if needed).")
        var folder: String

        @Argument(help: "The users to create repositories for.")
        var uids: [String]

        @Option(help: ArgumentHelp("Check pushed documents against this schema set, by name or the path of its folder (default: the set each store carries).", valueName: "set"))
        var schema: String?

        func run() throws {
            guard let cairn = SchemaLocator.executable() else {
                throw CairnError(.io, "cannot find the path of the running cairn tool (/proc/self/exe) for the hook")
            }
            let set = try schema.map { try SchemaLocator.set(named: $0) }
            for path in try Server.createRepositories(in: folder, uids: uids, cairn: cairn, schemaSet: set) {
                print("Created \(path)")
            }
        }
    }
}

struct Hook: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Server-side checks, run by git inside a repository of cairn server init.",
        subcommands: [PreReceive.self])

    struct PreReceive: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pre-receive",
            abstract: "Check a push (git gives `<old> <new> <ref>` lines on stdin); refuse it with reasons.")

        func run() throws {
            var input = ""
            while let line = readLine(strippingNewline: false) { input += line }
            let refusal = Self.refusal(try PreReceiveHook(environment: Environment.current.variables), input)
            guard let refusal else { return }
            for line in refusal.split(separator: "\n") {
                Output.error("cairn: \(line)\n")
            }
            throw ExitCode(1)
        }

        /// The hook's refusal of the push, one reason per line; nil when it is accepted.
        static func refusal(_ hook: PreReceiveHook, _ input: String) -> String? {
            do {
                try hook.check(input)
                return nil
            } catch {
                return error.commandLineMessage
            }
        }
    }
}
