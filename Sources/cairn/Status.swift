import ArgumentParser
import CairnCore
import CairnMerge

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the documents written since the last checkpoint.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Compare every file with the last checkpoint, to find hand edits too.")
    var scan = false

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let store = try global.openStore()
        let status = try store.status(scan: scan)
        if json {
            return Output.json(try Self.jsonValue(of: status, in: store))
        }
        if let head = status.head {
            print("User \(store.uid), last checkpoint \(head.id.short): \(head.summary)")
        } else {
            print("User \(store.uid), no checkpoint yet")
        }
        if let elsewhere = status.headElsewhere {
            print("HEAD is \(elsewhere), not on \(Store.branch): checkpoint, sync and every write refuse until git switch \(Store.branch)")
        }
        if let remote = try store.remote(), let (ahead, behind) = try store.unpushed() {
            let queued = ahead == 0 ? "every checkpoint pushed" : "\(ahead) checkpoint\(ahead == 1 ? "" : "s") not pushed"
            let incoming = behind == 0 ? "" : ", \(behind) fetched not merged"
            print("Remote \(remote): \(queued)\(incoming) (as of the last sync)")
        }
        guard !status.pending.isEmpty else {
            print("Nothing to checkpoint.")
            return
        }
        let count = status.pending.count
        print("\(count) document\(count == 1 ? "" : "s") not checkpointed:")
        for change in status.pending {
            print("  " + Output.pad(change.kind.rawValue, to: 9) + " " + change.displayPath)
        }
    }

    /// `user`, `folder`, `schemaSet`, `head`, `headElsewhere`, `remote` (`url`, `unpushed`,
    /// `unmerged`, `lastSynced`; null without one) and `pending`.
    static func jsonValue(of status: StoreStatus, in store: Store) throws -> JSONValue {
        var remote = JSONValue.null
        if let url = try store.remote(), let (ahead, behind) = try store.unpushed() {
            remote = .object([
                "url": .string(url.description), "unpushed": .integer(Int64(ahead)), "unmerged": .integer(Int64(behind)),
                "lastSynced": Output.id(try store.lastSynced()),
            ])
        }
        return .object([
            "user": .string(store.uid),
            "folder": .string(store.folder),
            "schemaSet": Output.text(try store.schemaSetName()),
            "head": status.head.map(Output.jsonValue(of:)) ?? .null,
            "headElsewhere": Output.text(status.headElsewhere),
            "remote": remote,
            "pending": .array(status.pending.map(Output.jsonValue(of:))),
        ])
    }
}
