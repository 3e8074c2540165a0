import ArgumentParser
import CairnCommandLine
import CairnCore
import CairnMerge
import CairnSchemaSets

/// `cairn content download NAME ITEM`.
struct ContentDownloadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Download an item (or its new version) for offline use.",
        discussion: """
            Only what the device lacks is fetched. Every new version is checked: the item's \
            files only, every document JSON and, with the collection's content set (--schema, \
            else a shipped set of that collection), valid under it. The newest version that \
            holds to these rules is taken, and the broken versions passed over are named \
            (content ls keeps them); when none newer than the one held does, the download is \
            refused and the item stays as it was. An item over the per-item limit, or that \
            cannot fit beside the items with responses not yet synced, is refused; nothing is \
            evicted then.
            """)

    @OptionGroup var global: GlobalOptions
    @OptionGroup var transfer: TransferOptions

    @Argument(help: ArgumentHelp("The collection (assessments, books).", valueName: "name"))
    var name: String

    @Argument(help: ArgumentHelp("The item's ID.", valueName: "item"))
    var item: String

    @Option(help: ArgumentHelp("The collection's content set: a name or a folder path.", valueName: "set"))
    var schema: String?

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let home = global.resolvedHome
        let store = try home.openStore(global.user)
        let set = try Self.contentSet(schema, collection: name)
        let download = try ContentCache(home: home).download(
            collection: name, item: item, for: store, schemaSet: set,
            options: transfer.syncOptions(tokenCommand: store.tokenCommand()))
        if json { return Output.json(ContentList.jsonValue(of: download)) }
        for evicted in download.evicted {
            print("Evicted \(evicted.key) (version \(evicted.version), \(ContentCache.shown(evicted.sizeBytes)))")
        }
        let held = download.item
        let version = "version \(held.version) (\(held.commit.short))"
        if download.unchanged {
            print("\(held.key) is up to date at \(version); kept until \(ContentList.time(held.expiresAt))")
        } else {
            let from = download.previous.map { " from version \($0.version)" } ?? ""
            print(
                "Downloaded \(held.key)\(from) to \(version): \(ContentCache.shown(held.sizeBytes)) on disk, \(download.receivedObjects) object(s) received; kept until \(ContentList.time(held.expiresAt))"
            )
            for passed in held.passedOver {
                print("Passed over " + ContentList.passedOver(passed))
            }
        }
    }

    /// The set named by --schema, else a shipped content set of the collection, else none.
    static func contentSet(_ schema: String?, collection name: String) throws -> SchemaSet? {
        if let schema {
            let set = try SchemaSet(reading: SchemaLocator.set(named: schema), then: "nothing was downloaded")
            guard set.contentCollection == name else {
                throw CairnError(
                    .invalidInput,
                    "the schema set \(schema) is not the content set of \(name); name the collection's set, or leave --schema out; nothing was downloaded"
                )
            }
            return set
        }
        // Only the sets that name the collection in a content path are read whole.
        let marker = Array("\"\(name)/{".utf8)
        for shipped in SchemaSets.names {
            guard let files = SchemaSets.named(shipped),
                files.files.values.contains(where: { $0.count >= marker.count && Self.contains($0, marker) }),
                let set = try? SchemaSet(reading: files), set.contentCollection == name
            else { continue }
            return set
        }
        return nil
    }

    private static func contains(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        guard let first = part.first else { return true }
        var index = bytes.startIndex
        while let found = bytes[index...].firstIndex(of: first) {
            if bytes[found...].starts(with: part) { return true }
            index = found + 1
        }
        return false
    }
}
