import CairnCore
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Keys as the command line reads them: a key file only its owner can read, one key per line,
/// the current first; or one key in an environment variable, base64 or hex. Each refusal is
/// one line that says what to do.
@Suite(.historiesVerified) struct KeyFileTests {
    let folder = TemporaryFolder()
    let current = StoreKey.generate()
    let previous = StoreKey.generate()

    private func write(_ text: String, mode: Int = 0o600, name: String = "store.key") throws -> String {
        let file = folder.path + "/" + name
        try text.write(toFile: file, atomically: false, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file)
        return file
    }

    @Test func twoKeyringsFromOneKeyFileSealAlike() throws {
        let file = try write("# the store's keys, newest first\n\(current.base64)\n\n  # rotated out in May\n\(previous.base64)\n")
        let first = try Keyring(contentsOfKeyFile: file)
        let second = try Keyring(contentsOfKeyFile: file)
        #expect(first.current == current && first.previous == [previous])
        #expect(first == second)
        let book = Array(#"{"title":"Middlemarch"}"#.utf8)
        #expect(
            try DocumentCipher(keyring: first).seal(book, at: "users/u1/books/b1.json")
                == DocumentCipher(keyring: second).seal(book, at: "users/u1/books/b1.json"))
        // What a keyring writes, it reads back.
        let copy = try write(first.keyFileText, mode: 0o400, name: "copy.key")
        #expect(try Keyring(contentsOfKeyFile: copy) == first)
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660, 0o700 | 0o007])
    func aKeyFileOthersCanReachIsRefused(_ mode: Int) throws {
        let file = try write(current.base64 + "\n", mode: mode)
        let error = #expect(throws: CairnError.self) { try Keyring(contentsOfKeyFile: file) }
        let octal = String(repeating: "0", count: 4 - String(mode, radix: 8).count) + String(mode, radix: 8)
        #expect(
            error?.description == "key file \(file) has mode \(octal); a key file must be readable by its owner alone (chmod 600 \(file))")
        #expect(error?.code == .invalidInput)
    }

    @Test func aKeyFileThatIsNotOneIsRefusedWithWhatToDo() throws {
        let cases: [(text: String, says: String)] = [
            ("", "holds no key; write the store's key on its first line, base64 of 32 bytes"),
            ("# only a comment\n\n", "holds no key"),
            ("not a key at all!\n", ", line 1, is not a key: neither base64 nor hex"),
            ("\(current.base64)\nAAAA\n", ", line 2, holds 3 bytes, not a key; a store key is 32 bytes (256 bits)"),
            ("\(current.base64)\n\(previous.base64)\n\(current.base64)\n", ", line 3 repeats the key of line 1; list each key once"),
        ]
        for (index, item) in cases.enumerated() {
            let file = try write(item.text, name: "bad\(index).key")
            let error = #expect(throws: CairnError.self) { try Keyring(contentsOfKeyFile: file) }
            #expect(error?.description.hasPrefix("key file \(file)") == true, "\(item.text)")
            #expect(error?.description.contains(item.says) == true, "\(error?.description ?? "")")
            #expect(error?.description.contains("\n") == false)
        }
        let missing = #expect(throws: CairnError.self) { try Keyring(contentsOfKeyFile: folder.path + "/none.key") }
        #expect(missing?.code == .notFound)
        #expect(missing?.description == "key file \(folder.path)/none.key does not exist; give the file that holds the store's key")
        let notAFile = #expect(throws: CairnError.self) { try Keyring(contentsOfKeyFile: folder.path) }
        #expect(notAFile?.description.contains("is not a regular file") == true)
    }

    @Test func aKeyFileWithWindowsLineBreaksReads() throws {
        let file = try write("\(current.base64)\r\n\(previous.base64)\r\n")
        #expect(try Keyring(contentsOfKeyFile: file) == Keyring(current: current, previous: [previous]))
    }

    @Test func anEnvironmentVariablesKeyIsBase64OrHex() throws {
        // Cairn writes base64; the test spells the key in hex itself.
        let hex = Data(base64Encoded: current.base64)!.map { String(format: "%02x", $0) }.joined()
        #expect(try StoreKey(text: current.base64 + "\n", source: "CAIRN_KEY") == current)
        #expect(try StoreKey(text: hex, source: "CAIRN_KEY") == current)
        #expect(try StoreKey(text: hex.uppercased(), source: "CAIRN_KEY") == current)
        let refusals: [(value: String, says: String)] = [
            ("", "CAIRN_KEY is empty; give the store's key, base64 or hex of 32 bytes"),
            (String(hex.dropLast(2)), "CAIRN_KEY is not a key: neither base64 nor hex; give the store's key, base64 or hex of 32 bytes"),
            (
                String(hex.dropLast(2)) + "--",
                "CAIRN_KEY is not a key: neither base64 nor hex; give the store's key, base64 or hex of 32 bytes"
            ),
            (
                Data(repeating: 7, count: 16).base64EncodedString(),
                "CAIRN_KEY holds 16 bytes, not a key; a store key is 32 bytes (256 bits), base64 or hex"
            ),
        ]
        for refusal in refusals {
            let error = #expect(throws: CairnError.self) { try StoreKey(text: refusal.value, source: "CAIRN_KEY") }
            #expect(error?.description == refusal.says)
        }
    }
}
