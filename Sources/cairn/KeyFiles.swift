import CairnCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The key file a command is given (`--key-file`, else `CAIRN_KEY_FILE`), and the home whose
/// configuration reads keys from it.
enum KeyFiles {
    /// `home` reading its keys from `keyFile` (else from the environment). With `creating`, a
    /// key file that does not exist is made with a new key (mode 0600), and its path returned.
    static func home(_ home: Home, keyFile: String?, creating: Bool) throws(CairnError) -> (home: Home, created: String?) {
        var configuration = home.configuration
        var created: String?
        if let keyFile {
            if creating, !FileManager.default.fileExists(atPath: keyFile) {
                // A new folder for keys is its owner's alone, as the key file is.
                let folder = URL(fileURLWithPath: keyFile).deletingLastPathComponent().path
                if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
                    do {
                        try FileManager.default.createDirectory(
                            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                    } catch {
                        throw CairnError(.io, "cannot create the folder of key file \(keyFile): \(error)")
                    }
                }
                try Keyring(current: StoreKey.generate()).write(toKeyFile: keyFile)
                created = keyFile
            }
            configuration.keys = .file(keyFile)
        } else if configuration.keys == nil {
            throw CairnError(
                .invalidInput,
                "an encrypted store needs a key: give --key-file FILE (a new key is written there if it does not exist), or set CAIRN_KEY_FILE"
            )
        }
        // A key file that is unreadable or not one is refused here, before anything is made.
        _ = try configuration.keys?.keyring()
        return (Home(root: home.root, configuration: configuration), created)
    }
}
