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

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let store = try global.openStore()
        let result = try store.sync(transfer.syncOptions())
        if json {
            return Output.json(Self.jsonValue(of: result))
        }
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

    /// `checkpoint` (the one made of pending writes first: `id`, `changes`; null when none),
    /// `integration` (`upToDate`, `fastForward`, `merged`), `merge` (the merge's id; null
    /// unless merged), `head`, `changed` (the documents the remote's work changed here),
    /// `conflicts`, `corrections`, `pushed` (checkpoints sent) and `rounds`.
    static func jsonValue(of result: SyncResult) -> JSONValue {
        let integration: String
        var merge: CheckpointID?
        switch result.integration {
        case .upToDate: integration = "upToDate"
        case .fastForward: integration = "fastForward"
        case .merged(let id): (integration, merge) = ("merged", id)
        }
        let checkpoint: JSONValue = result.checkpoint.id.map { id in
            .object(["id": .string(id.hex), "changes": .array(result.checkpoint.changes.map(Output.jsonValue(of:)))])
        } ?? .null
        return .object([
            "checkpoint": checkpoint,
            "integration": .string(integration),
            "merge": Output.id(merge),
            "head": Output.id(result.head),
            "changed": .array(result.changedFiles.map { .string(Output.documentPath(ofFile: $0)) }),
            "conflicts": .array(result.conflicts.map(\.jsonValue)),
            "corrections": .array(result.corrections.map(Output.jsonValue(of:))),
            "pushed": .integer(Int64(result.pushedCommits)),
            "rounds": .integer(Int64(result.rounds)),
        ])
    }
}
