import CairnCommandLine
import CairnCore
import Dispatch
import Foundation
import Synchronization

/// The command a store names to print a fresh ID token (`cairn remote set URL --token-command
/// CMD`), run as git runs a credential helper: by `/bin/sh -c`, its first line of output the
/// token, `CAIRN_TOKEN_FRESH=1` set when the last token was refused (an expired one). It has 30
/// seconds. Its token is kept in memory only; a failure is one line that never holds it.
enum TokenCommand {
    static func provider(_ command: String) -> TokenProvider {
        TokenProvider { fresh in
            try run(command, fresh: fresh)
        }
    }

    static func run(_ command: String, fresh: Bool) throws(CairnError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        environment["CAIRN_TOKEN_FRESH"] = fresh ? "1" : nil
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CairnError(.authentication, "cannot run the token command \(String(reflecting: command)): \(error)", remedy: .giveCredentials)
        }
        // Read while it runs (a full pipe would stop it), for 30 s at most.
        let printed = Mutex(Data()), said = Mutex(Data())
        let reading = DispatchGroup()
        DispatchQueue.global().async(group: reading) { printed.withLock { $0 = output.fileHandleForReading.readDataToEndOfFile() } }
        DispatchQueue.global().async(group: reading) { said.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
        guard reading.wait(timeout: .now() + 30) == .success else {
            process.terminate()
            throw CairnError(.authentication, "the token command \(String(reflecting: command)) gave no token in 30 s", remedy: .giveCredentials)
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0, process.terminationReason == .exit else {
            let first = String(decoding: said.withLock { $0 }, as: UTF8.self).split(separator: "\n").first.map { ": " + $0 } ?? ""
            throw CairnError(.authentication, "the token command \(String(reflecting: command)) failed (exit status \(process.terminationStatus))\(first)", remedy: .giveCredentials)
        }
        guard let line = String(decoding: printed.withLock { $0 }, as: UTF8.self).split(separator: "\n").first, !line.isEmpty else {
            throw CairnError(.authentication, "the token command \(String(reflecting: command)) printed no token", remedy: .giveCredentials)
        }
        return String(line)
    }
}
