import ArgumentParser
import CairnCore

/// `cairn content remote [URL]`: where the active user's content items are fetched from.
struct ContentRemoteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remote",
        abstract: "Show or set the URL of the user's content items.",
        discussion: """
            URL is a template with {collection} and {item}: \
            https://host/git/content/{collection}/{item}.git. Unset, it follows the user's \
            remote: the remote's folder, then content/{collection}/{item} (with .git when the \
            remote's name has it), as cairn server lays content out.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The template to set.", valueName: "url"))
    var url: String?

    @Flag(help: "Forget the template set; follow the user's remote again.")
    var unset = false

    func run() throws {
        let store = try global.openStore()
        if unset && url != nil {
            throw CairnError(.invalidInput, "give a URL or --unset, not both; nothing was changed")
        }
        if unset || url != nil { try store.setContentTemplate(url) }
        guard let template = try store.contentTemplate() else {
            throw CairnError(.notFound, "the store of user \(store.uid) has neither a remote nor a content URL", remedy: .setRemote)
        }
        print(template)
    }
}
