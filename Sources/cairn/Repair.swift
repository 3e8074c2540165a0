import ArgumentParser
import CairnCore
import CairnSystem

struct Repair: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Restore a corrupt store from its remote, keeping the documents not yet pushed.",
        discussion: """
            Clones the remote beside the store, merges in every document of the store's working \
            tree that the remote lacks or holds otherwise (its unpushed checkpoints and pending \
            writes), checkpoints them, and moves the damaged store to .damaged/ in the home. \
            Run cairn sync afterwards to push what was kept.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var transfer: TransferOptions

    @Option(name: .customLong("from"), help: ArgumentHelp("The remote to restore from, when not the store's own.", valueName: "url"))
    var url: String?

    func run() throws {
        let home = global.resolvedHome
        let remote = try url.map { try RemoteURL($0) }
        let result = try home.repairStore(
            global.user, from: remote, options: transfer.syncOptions(),
            mergeDriver: Syscalls.executablePath())
        let kept = result.kept.count
        let merged = result.merged > 0 ? " (\(result.merged) merged with the remote's)" : ""
        print(
            "Repaired the store from \(result.remote.map { "\($0)" } ?? "its remote"): kept \(kept) document\(kept == 1 ? "" : "s") not yet pushed\(merged); the damaged store is at \(result.damagedCopy)"
        )
        for file in result.skipped {
            print("  not kept (unreadable or invalid; still in the damaged copy): \(file)")
        }
        if kept > 0 { print("Run cairn sync to push them.") }
    }
}
