import CGit2
import CGit2Setup
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The CA certificates that https:// servers are verified against, when they are not the
/// system's: git's `http.sslCAInfo` (a file of PEM certificates) and `http.sslCAPath` (a
/// folder of them), for a server whose certificate an organisation signs itself.
///
/// As in git, the locations replace the system's list. libgit2 keeps one list for the
/// process, so locations hold for every later TLS connection, and the last given win.
/// ``Remote`` reads git's settings before each fetch, push or listing over https://
/// (``useConfigured(for:in:)``), unless an app chose the locations itself (``use(file:folder:)``,
/// or libgit2's own option): the app's choice is kept.
public enum TrustedCertificates {
    private static let state = Mutex(State())

    private struct State {
        /// The locations git's settings named, once in use.
        var configured: Locations?
        /// An app chose the locations: git's settings are not read.
        var chosenByApp = false
    }

    private struct Locations: Equatable {
        let file: String?
        let folder: String?
    }

    /// Verifies servers against the certificates at `file` and/or `folder` from now on, in
    /// place of the system's and of what git's settings name. Throws when they cannot be read
    /// as certificates; the list in use is then unchanged.
    public static func use(file: String?, folder: String?) throws(GitError) {
        try apply(Locations(file: file, folder: folder), setting: "the locations given") { $0.chosenByApp = true }
    }

    /// Uses the CA certificates git's settings name for an https:// `url`, when they name
    /// any, as git does: `GIT_SSL_CAINFO` (a file of PEM certificates) and `GIT_SSL_CAPATH`
    /// (a folder of them) in the environment, else `http.sslCAInfo` and `http.sslCAPath` in
    /// the repository's configuration (a store's: `git -C <store> config http.sslCAInfo
    /// FILE`). Nothing named: the list stays as it is. Giving the same locations again reads
    /// nothing.
    static func useConfigured(for url: String, in repository: Repository) throws(GitError) {
        guard url.hasPrefix("https://") else { return }
        let chosenElsewhere = state.withLock { $0.chosenByApp || ($0.configured == nil && cgit2_certificates_located_elsewhere() != 0) }
        if chosenElsewhere { return }
        var (file, folder) = (environment("GIT_SSL_CAINFO"), environment("GIT_SSL_CAPATH"))
        var setting = file != nil ? "GIT_SSL_CAINFO" : "GIT_SSL_CAPATH"
        if file == nil && folder == nil {
            (file, folder) = (try repository.config("http.sslCAInfo"), try repository.config("http.sslCAPath"))
            guard file != nil || folder != nil else { return }
            setting = file != nil ? "http.sslCAInfo" : "http.sslCAPath"
        }
        let wanted = Locations(file: file, folder: folder)
        if state.withLock({ $0.configured == wanted }) { return }
        try apply(wanted, setting: setting) { $0.configured = wanted }
    }

    /// Hands `locations` to libgit2, which reads them at once; `noted` records them once read.
    private static func apply(_ locations: Locations, setting: String, noted: (inout State) -> Void) throws(GitError) {
        try GitLibrary.ensureReady()
        let result: Result<Void, GitError> = state.withLock { current in
            do throws(GitError) {
                try check(
                    cgit2_set_ssl_cert_locations(locations.file, locations.folder),
                    "git_libgit2_opts(GIT_OPT_SET_SSL_CERT_LOCATIONS)")
            } catch {
                var named = error
                let place = [locations.file, locations.folder].compactMap { $0 }.joined(separator: " and ")
                named.message =
                    "cannot read the CA certificates at \(place) (\(setting)): \(error.message); "
                    + "give a file (or folder) of PEM certificates, or unset \(setting) to trust the system's"
                named.reason = .certificatesUnreadable(setting: setting)
                return .failure(named)
            }
            noted(&current)
            return .success(())
        }
        try result.get()
    }

    /// A variable of the environment; nil when unset or empty.
    private static func environment(_ name: String) -> String? {
        guard let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }
}
