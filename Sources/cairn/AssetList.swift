import ArgumentParser
import CairnCore
import CairnMerge

struct AssetList: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ls",
        abstract: "List the assets the documents point to, and whether each is on this device.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: Output.jsonHelp)
    var json = false

    func run() throws {
        let assets = try global.openStore().assets()
        if json {
            return Output.json(
                .array(
                    assets.map { asset in
                        .object([
                            "path": .string(asset.document.description), "field": .string(asset.field),
                            "oid": .string(asset.reference.oid), "size": .integer(asset.reference.size),
                            "mediaType": Output.text(asset.reference.mediaType), "local": .bool(asset.isLocal),
                        ])
                    }))
        }
        for asset in assets {
            print(
                "\(asset.document) \(asset.field) \(asset.reference.oid.prefix(12)) \(asset.reference.size) \(asset.isLocal ? "here" : "on the server")"
            )
        }
    }
}
