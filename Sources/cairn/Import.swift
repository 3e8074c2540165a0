import ArgumentParser
import CairnCore
import CairnMerge

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Merge another local user's progress (an anonymous user's) into this one.",
        discussion: """
            Every document of users/UID/… is moved under this user and merged under the \
            policies, in one checkpoint that records what was imported. The other store is \
            not changed; importing again takes only what changed there since.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The user whose progress to take in.")
    var uid: String

    func run() throws {
        let home = global.resolvedHome
        let store = try global.openStore()
        let other = try home.openStore(uid)
        let result = try store.importProgress(of: other)
        guard let checkpoint = result.checkpoint else {
            print("Nothing new to import from \(uid).")
            return
        }
        let count = result.documents.count
        print("Imported \(count) document\(count == 1 ? "" : "s") of \(uid) into \(store.uid): checkpoint \(checkpoint.short)")
        for record in result.conflicts {
            print("  " + record.description)
        }
    }
}
