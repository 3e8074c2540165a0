import ArgumentParser
import CairnCore

struct Users: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "List the users that have a store here; * marks the active one.")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let home = global.resolvedHome
        let active = try home.activeUser()
        for uid in home.users() {
            print("\(uid == active ? "*" : " ") \(uid)")
        }
    }
}
