import ArgumentParser

/// `cairn schema`: commands about a schema set.
struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Commands about a schema set (named, or a folder path).",
        subcommands: [SchemaLaws.self])
}
