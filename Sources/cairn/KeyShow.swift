import ArgumentParser
import CairnCore

struct KeyShow: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Say whether the store is encrypted, and the IDs of its keys (never the keys).")

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let store = try global.openStore()
        guard let keyring = store.keyring else {
            print("The store of user \(store.uid) is not encrypted")
            return
        }
        print("The store of user \(store.uid) is encrypted with key \(keyring.current.id)")
        if !keyring.previous.isEmpty {
            print("Earlier keys, for its history: \(keyring.previous.map(\.id.description).joined(separator: ", "))")
        }
        if let file = store.keyFile { print("Key file: \(file)") }
    }
}
