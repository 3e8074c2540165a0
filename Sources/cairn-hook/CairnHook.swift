import ArgumentParser
import CairnCommandLine
import CairnCore
import CairnServer
import CairnSystem

#if canImport(Glibc)
import Glibc
#endif

/// `cairn-hook`: the hooks of a repository of `cairn server init` as a program of their own,
/// which the hook scripts start on every push. It links what the checks need and no command
/// tree, so it starts in less time than the whole tool (6.6–6.9 ms against 8.2–8.5 for a push's
/// check, measured; the server's CPU per push is mostly process starts); `cairn hook pre-receive` does the same for the repositories whose
/// scripts name the tool.
@main
enum CairnHook {
    static func main() {
        // `cairn-hook pre-receive`, from a script; or, when the script's first line names the
        // program (`#!…/cairn-hook pre-receive`), the kernel adds the script's path.
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `--help`, and the description the manual page is made from.
        if arguments.first?.hasPrefix("--") == true { CairnHookCommand.main(arguments) }
        guard (1...2).contains(arguments.count), let hook = ReceiveHook(rawValue: arguments[0]) else {
            say(
                "usage: cairn-hook pre-receive|post-receive (git runs it in a repository of cairn server init, the updated references on stdin)"
            )
            exit(64)
        }
        // Only the variables the hooks read, not the whole environment into a dictionary.
        var variables: [String: String] = [:]
        for name in ReceiveHook.variables + ["CAIRN_LOG"] {
            if let value = getenv(name) { variables[name] = String(cString: value) }
        }
        let environment = Environment(variables: variables)
        environment.bootstrapLogging()
        var input = ""
        while let line = readLine(strippingNewline: false) { input += line }
        let outcome = hook.run(input, environment: environment.variables, wording: { $0.commandLineMessage })
        for line in outcome.lines { say(line) }
        exit(outcome.status)
    }

    /// Writes `cairn: <line>` on standard error, which git passes to the pusher.
    static func say(_ line: String) {
        let bytes = Array("cairn: \(line)\n".utf8)
        _ = bytes.withUnsafeBytes { Syscalls.writeAll(2, from: $0) }
    }
}
