import ArgumentParser
import CairnCommandLine
import CairnCore

struct KeyRotate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rotate",
        abstract: "Seal every document with a new key in one checkpoint; the key file keeps the old keys for the history.",
        discussion: """
            The new key is written to the key file first (CAIRN_KEY_FILE, else the store's own), \
            with the earlier keys after it, then the documents are sealed again. Give the new key \
            file to the store's other devices: a device without the new key cannot read what \
            follows the rotation.
            """)

    @OptionGroup var global: GlobalOptions

    func run() throws {
        let store = try global.openStore()
        guard let keyring = store.keyring else {
            throw CairnError(.invalidInput, "the store of user \(store.uid) is not encrypted: it has no key to rotate")
        }
        let environment = Environment.current
        let file: String
        if case .file(let named)? = environment.keys {
            file = named
        } else if environment.keys == nil, let own = store.keyFile {
            file = own
        } else {
            throw CairnError(
                .invalidInput,
                "a rotation writes the new key to a key file: set CAIRN_KEY_FILE to the store's key file (CAIRN_KEY cannot be rewritten) — nothing was changed"
            )
        }
        let rotated = keyring.rotated(to: StoreKey.generate())
        try rotated.write(toKeyFile: file)
        let result = try store.rotateKey(to: rotated)
        print(
            "Rotated the key of user \(store.uid) to \(rotated.current.id) (\(result.changes.count) document\(result.changes.count == 1 ? "" : "s") sealed again); \(file) holds it and the earlier keys"
        )
        if let id = result.id { print("Checkpoint \(id.short)") }
    }
}
