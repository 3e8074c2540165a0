import ArgumentParser
import CairnCommandLine
import CairnCore

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// git's text converter for an encrypted store's documents (`diff.cairn-sealed.textconv`):
/// the JSON of a sealed blob where the key is, one line saying why not where it is not —
/// never a failure git would stop on, never the plaintext without the key.
struct KeyTextconv: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "textconv",
        abstract: "Print a sealed document as JSON, for git's diff and log -p.",
        shouldDisplay: false)

    @Argument(help: "The file git hands over (a blob's bytes).")
    var file: String

    func run() throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            print("<cannot read \(file)>")
            return
        }
        let bytes = [UInt8](data)
        guard DocumentCipher.isSealed(bytes) else {
            Output.write(bytes)
            return
        }
        let keyID = DocumentCipher.keyID(of: bytes).map(\.description) ?? "unknown"
        let keyring: Keyring?
        do {
            keyring = try Store.keyring(
                forRepositoryAt: FileManager.default.currentDirectoryPath, configuration: Environment.current.configuration)
        } catch {
            print("<encrypted with key \(keyID); the key here cannot be read: \(error.message)>")
            return
        }
        guard let keyring else {
            print("<encrypted with key \(keyID); no key here>")
            return
        }
        do {
            let opened = try DocumentCipher(keyring: keyring).open(bytes)
            Output.write(opened.document.last == UInt8(ascii: "\n") ? opened.document : opened.document + [UInt8(ascii: "\n")])
        } catch {
            print("<\(error.message)>")
        }
    }
}
