import CairnCore
import CairnSystem
import Logging

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The tool's environment variables, read in one place for both of its programs (`cairn`,
/// and `cairn-web`, which `cairn web` runs). The library never reads them: it takes their
/// values — a ``Configuration`` in the ``Home``, the ``SyncOptions`` of a sync, the variables
/// a server's hook is given.
package struct Environment {
    package var variables: [String: String]

    package init(variables: [String: String]) {
        self.variables = variables
    }

    /// The process's own.
    package static var current: Environment { Environment(variables: Syscalls.environmentVariables()) }

    /// `CAIRN_LOG`: the level of the log lines on stderr; nil for none.
    package var logLevel: Logger.Level? {
        variables["CAIRN_LOG"].flatMap { Logger.Level(rawValue: $0.lowercased()) }
    }

    /// The home named by `--home`, else by `CAIRN_HOME`, else `~/.cairn`, with the
    /// configuration of ``configuration``.
    package func home(_ explicit: String?) -> Home {
        if let explicit, !explicit.isEmpty { return Home(root: explicit, configuration: configuration) }
        if let variable = variables["CAIRN_HOME"], !variable.isEmpty { return Home(root: variable, configuration: configuration) }
        let userHome = variables["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? FileManager.default.homeDirectoryForCurrentUser.path
        return Home(root: userHome + "/.cairn", configuration: configuration)
    }

    /// `CAIRN_LOCK_TIMEOUT` (seconds; the standard timeout when unset or not a number), the
    /// credentials of `CAIRN_USERNAME` and `CAIRN_PASSWORD` for a remote whose URL holds
    /// none, and the name of `CAIRN_DEVICE_NAME` for the commits this device makes.
    package var configuration: Configuration {
        Configuration(
            lockTimeout: variables["CAIRN_LOCK_TIMEOUT"].flatMap(Double.init) ?? Configuration.standardLockTimeout,
            username: variables["CAIRN_USERNAME"], password: variables["CAIRN_PASSWORD"], keys: keys,
            deviceName: variables["CAIRN_DEVICE_NAME"].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// The keys of encrypted stores: the key file text of `CAIRN_KEY`, else the key file
    /// `CAIRN_KEY_FILE` names (read when an encrypted store needs them); nil for neither,
    /// and then a store's own `cairn.keyFile` is used.
    package var keys: KeySource? {
        if let text = variables["CAIRN_KEY"], !text.isEmpty { return .text(text, source: "CAIRN_KEY") }
        if let file = variables["CAIRN_KEY_FILE"], !file.isEmpty { return .file(file) }
        return nil
    }

    /// The schedule of `CAIRN_SYNC_RETRY`, else the standard one; an invalid schedule is an
    /// error (read only by the commands that talk to a remote).
    package func syncRetry() throws(CairnError) -> RetrySchedule {
        guard let text = variables["CAIRN_SYNC_RETRY"] else { return .standard }
        return try RetrySchedule(parsing: text)
    }

    /// The timeout of `CAIRN_NETWORK_TIMEOUT` (seconds, decimals allowed, 0 for none), else
    /// the standard one; an invalid value is an error (read only by the commands that talk
    /// to a remote).
    package func networkTimeout() throws(CairnError) -> Double {
        guard let text = variables["CAIRN_NETWORK_TIMEOUT"] else { return SyncOptions.standardNetworkTimeout }
        guard let seconds = Double(String(text.trimmedOfSpaces)), seconds >= 0, seconds <= 86_400 else {
            throw CairnError(
                .invalidInput, "invalid CAIRN_NETWORK_TIMEOUT \(String(reflecting: text)): give seconds, like 30 (0 for no timeout)")
        }
        return seconds
    }

    /// `CAIRN_TOKEN`: the ID token to present to a server that takes tokens (with the user ID
    /// as the user name), before any token command a store names.
    package var token: String? {
        variables["CAIRN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The folders of `CAIRN_SCHEMA_PATH` (colon-separated), where schema sets are looked
    /// for first.
    package var schemaPath: [String] {
        variables["CAIRN_SCHEMA_PATH"].map { $0.split(separator: ":").map(String.init) } ?? []
    }
}
