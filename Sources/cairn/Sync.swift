import ArgumentParser
import CairnCore
import CairnMerge

struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Checkpoint, fetch, merge under the policies, and push.",
        discussion: """
            Pending writes are checkpointed first. When another device pushed first, the store \
            fetches and merges again. Network failures — a connection refused or cut, or one that \
            makes no progress for $CAIRN_NETWORK_TIMEOUT seconds (default 30) — are retried on \
            the schedule (--retry); \
            refused credentials, a push the server refuses and foreign data end the sync at \
            once, with the store back on its last checkpoint; a refusal that names documents \
            names the cairn restore command that takes them back to the remote's version. \
            Derived fields that other writers (plain git, git libraries) left wrong in what the \
            sync brings in or pushes are computed again, in a checkpoint of their own, each \
            listed as "corrected". Credentials: the URL's, else \
            $CAIRN_USERNAME and $CAIRN_PASSWORD.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var transfer: TransferOptions

    func run() throws {
        let store = try global.openStore()
        let result = try store.sync(transfer.syncOptions())
        if let checkpoint = result.checkpoint.id {
            print("Checkpoint \(checkpoint.short): \(result.checkpoint.summary)")
        }
        print(result.summary(conflictsShownBy: "cairn conflicts"))
        for record in result.conflicts {
            print("  " + record.description)
        }
        for correction in result.corrections {
            print("  corrected " + correction.described(verb: "was"))
        }
    }
}
