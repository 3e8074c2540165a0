import ArgumentParser

/// `cairn content`: shared content on this device, and the progress pinned to it.
struct ContentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "content",
        abstract: "Shared content read on this device, and the decisions for progress pinned to content that changed.",
        discussion: """
            A sync holds back the documents pinned (x-cairn.pins) to an item the server updated \
            or deleted, and names them; decide per item with submit-anyway or discard.
            """,
        subcommands: [ContentSubmitAnyway.self, ContentDiscard.self])
}
