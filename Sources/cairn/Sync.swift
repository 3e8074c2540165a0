import ArgumentParser
import CairnCore
import CairnMerge

struct Sync: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
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
            listed as "corrected". Documents pinned to shared content (x-cairn.pins) that the \
            server updated or deleted hold the push back: the sync merges, lists each held \
            document, names the commands that decide (cairn content submit-anyway, cairn \
            content discard) and exits 1. Credentials: the URL's, else \
            $CAIRN_USERNAME and $CAIRN_PASSWORD.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var transfer: TransferOptions

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let store = try global.openStore()
        let result = try store.sync(transfer.syncOptions(tokenCommand: store.tokenCommand()))
        if json {
            Output.json(Self.jsonValue(of: result))
            if result.held { throw ExitCode(1) }
            return
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
        for (document, field) in result.clearedAssets {
            print("  cleared \(document) \(field): its asset was deleted on another device, and no one holds it")
        }
        if result.held {
            for (document, check) in result.heldDocuments {
                print("  held " + check.line(for: document))
            }
            print(Self.decisionLine(result.pins.filter(\.held)))
            throw ExitCode(1)
        }
    }

    /// The line that names the commands deciding for held documents: for the item when one is
    /// held, else with NAME ITEM; without submit-anyway when every held item was deleted.
    static func decisionLine(_ held: [PinCheck]) -> String {
        let items = Set(held.map { "\($0.collection) \($0.item)" })
        let target = items.count == 1 ? items.first! : "NAME ITEM"
        if held.allSatisfy({ $0.state == .deleted }) {
            return
                "Answers to deleted content cannot be submitted; they stay here. To put them aside (kept in history): cairn content discard \(target)"
        }
        return
            "Decide: cairn content submit-anyway \(target) (send them as they are), or cairn content discard \(target) (back to the remote's version, kept in history, and the new version downloaded)"
    }

    /// `checkpoint` (the one made of pending writes first: `id`, `changes`; null when none),
    /// `integration` (`upToDate`, `fastForward`, `merged`), `merge` (the merge's id; null
    /// unless merged), `head`, `changed` (the documents the remote's work changed here),
    /// `conflicts`, `corrections`, `clearedAssets` (`path`, `field`: asset fields cleared, their
    /// assets deleted elsewhere), `pushed` (checkpoints sent), `rounds`, `held` (whether pinned
    /// documents held the push back) and `pins` (per pinned version: `collection`, `item`,
    /// `pinnedVersion`, `pinnedNumber`, `state` — `unchanged`, `updated`, `deleted` —,
    /// `serverVersion`, `serverNumber`, `submittedAnyway`, `held`, `documents`).
    static func jsonValue(of result: SyncResult) -> JSONValue {
        let integration: String
        var merge: CheckpointID?
        switch result.integration {
        case .upToDate: integration = "upToDate"
        case .fastForward: integration = "fastForward"
        case .merged(let id): (integration, merge) = ("merged", id)
        }
        let checkpoint: JSONValue =
            result.checkpoint.id.map { id in
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
            "clearedAssets": .array(
                result.clearedAssets.map { .object(["path": .string($0.document.description), "field": .string($0.field)]) }),
            "pushed": .integer(Int64(result.pushedCommits)),
            "rounds": .integer(Int64(result.rounds)),
            "held": .bool(result.held),
            "pins": .array(
                result.pins.map { check in
                    .object([
                        "collection": .string(check.collection), "item": .string(check.item),
                        "pinnedVersion": .string(check.pinnedVersion),
                        "pinnedNumber": check.pinnedNumber.map { .integer(Int64($0)) } ?? .null,
                        "state": .string(check.state.rawValue),
                        "serverVersion": check.serverVersion.map(JSONValue.string) ?? .null,
                        "serverNumber": check.serverNumber.map { .integer(Int64($0)) } ?? .null,
                        "submittedAnyway": .bool(check.submittedAnyway), "held": .bool(check.held),
                        "documents": .array(check.documents.map { .string($0.description) }),
                    ])
                }),
        ])
    }
}
