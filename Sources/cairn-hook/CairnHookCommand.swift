import ArgumentParser

/// What `cairn-hook` takes, as a command description: its `--help` and its manual page
/// (`swift package generate-manual`). The program itself reads its arguments without a parser,
/// to start sooner on every push; only an argument starting with `--` comes here.
struct CairnHookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cairn-hook",
        abstract: "The hooks of a repository of cairn server init, which git runs on every push.",
        discussion: """
            The hook scripts of a repository of cairn server init start this program, with the \
            updated references on stdin as git gives them: pre-receive checks every new commit \
            against the store's rules and the schema set, and refuses the whole push in up to \
            20 lines; post-receive removes the assets a push no longer points to. CAIRN_LOG sets \
            the level of log lines on stderr. Exit status: 0 when the push is accepted, 1 when \
            refused, 64 for a usage error.
            """)

    @Argument(help: "The hook to run: pre-receive or post-receive.")
    var hook: String

    @Argument(help: "The hook script's path, which the kernel adds when the script's first line names this program.")
    var script: String?

    func validate() throws {
        guard hook == "pre-receive" || hook == "post-receive" else {
            throw ValidationError("git runs cairn-hook as pre-receive or post-receive, not \(hook)")
        }
    }

    func run() throws {
        throw ValidationError("cairn-hook runs from a hook script, with git's updated references on stdin")
    }
}
