import ArgumentParser

/// Assets: files a document's asset field points to, kept with Git LFS.
struct AssetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asset",
        abstract: "Files (recordings, photos) that documents' asset fields point to, kept with Git LFS.",
        subcommands: [AssetAdd.self, AssetGet.self, AssetRemove.self, AssetList.self])
}
