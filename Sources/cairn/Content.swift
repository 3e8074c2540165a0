import ArgumentParser

/// `cairn content`: shared content (assessments, books, content packs) downloaded for offline
/// use, kept in the home's `.content/` folder for all its users, read only; and the decisions
/// for progress pinned to content that changed.
struct ContentCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "content",
        abstract: "Download shared content for offline use, list, read and remove it; decide for answers pinned to content that changed.",
        discussion: """
            An item (an assessment, a book) is one repository on the server: \
            <folder of the user's remote>/content/NAME/ITEM.git unless cairn content remote \
            sets another URL. It is downloaded with the active user's credentials and kept \
            until removed or evicted: when a download would pass the limits (cairn content \
            limits), expired items go first, then the least recently used; never an item \
            whose responses are not yet synced. A sync holds back the documents pinned \
            (x-cairn.pins) to an item the server updated or deleted, and names them; decide \
            per item with submit-anyway or discard.
            """,
        subcommands: [
            ContentDownloadCommand.self, ContentList.self, ContentGet.self, ContentRemove.self,
            ContentLimitsCommand.self, ContentRemoteCommand.self, ContentSubmitAnyway.self, ContentDiscard.self,
        ])
}
