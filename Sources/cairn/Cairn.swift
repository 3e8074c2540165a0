import ArgumentParser
import CairnCommandLine
import CairnCore
import Logging

#if canImport(Glibc)
import Glibc
#endif

/// `cairn`: one user's progress as JSON documents in a git repository.
@main
struct Cairn: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cairn",
        abstract: "Offline-first progress store: JSON documents at Firestore-style paths in a per-user git repository.",
        discussion: """
            Exit status: 0 on success (a checkpoint with nothing to do succeeds), 1 when the \
            command failed (one line on stderr says why and what to do), 64 for a usage error, \
            75 when trying again later may work (the store stayed busy, or the remote could not \
            be reached). CAIRN_LOG=info (or debug, notice, warning) prints structured log lines \
            on stderr; with debug, a failure also prints its chain of causes before its line.
            """,
        version: "0.1.0",
        subcommands: [
            Init.self, Use.self, Users.self,
            Put.self, Get.self, Remove.self, List.self,
            AssetCommand.self, Status.self, Checkpoint.self, Log.self, Diff.self, Blame.self, Verify.self, Web.self, Validate.self,
            RemoteCommand.self, Clone.self, Sync.self, Restore.self, Repair.self, Conflicts.self, ContentCommand.self,
            Import.self, ImportFirestore.self, ExportFirestore.self, Migrate.self, Prune.self, Simulate.self,
            SchemaCommand.self, Test.self,
            KeyCommand.self, MergeDriver.self, MergeTree.self, ServerCommand.self, Hook.self,
        ])

    @OptionGroup var global: GlobalOptions

    /// Parses and runs the command; a store error becomes one line on stderr and an exit
    /// status (at `CAIRN_LOG=debug`, after the error's chain of causes).
    static func main() {
        ProcessMemory.keepFreedMemory()
        let environment = Environment.current
        environment.bootstrapLogging()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as CairnError {
            if let level = environment.logLevel, level <= .debug {
                Output.error(error.detailedDescription() + "\n")
            }
            Output.error("cairn: \(error.commandLineMessage)\n")
            Glibc.exit(error.code == .busy || error.code == .network ? 75 : 1)
        } catch {
            exit(withError: error)
        }
    }
}
