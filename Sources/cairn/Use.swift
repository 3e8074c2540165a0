import ArgumentParser
import CairnCore

struct Use: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "use",
        abstract: "Make a user's store the active one.")

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The user id.")
    var uid: String

    func run() throws {
        try global.resolvedHome.use(uid)
        print("Active user: \(uid)")
    }
}
