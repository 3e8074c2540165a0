import CairnCore
import Git
import GitFormat

/// git's own tools on a user's bare repository: its refs, and bundles of it — made with
/// `git bundle create`, read back with `git fetch` from the bundle. Cairn writes no bundle
/// itself.
enum GitBundles {
    /// Each ref of `repository` and the object it names, read in process (libgit2): a run over
    /// a shard's thousand users starts no process for a user with nothing new.
    static func refs(of repository: String) async throws(BackupError) -> [String: String] {
        do {
            return try Repository(openingAt: repository, checkingPacks: false).references().mapValues(\.hex)
        } catch {
            throw BackupError("cannot read the refs of \(repository): \(error)")
        }
    }

    /// Writes to `file` a bundle of every ref of `repository` with what `since` (the tips the
    /// bundles before it hold) does not reach: true. When that cannot be made (a tip no longer
    /// in the repository, or nothing new), the whole history: false, and the chain starts again.
    static func create(_ repository: String, to file: String, since: [String]) async throws(BackupError) -> Bool {
        let whole = ["--git-dir", repository, "bundle", "create", "-q", file, "--all"]
        if !since.isEmpty, try await git(whole + since.map { "^" + $0 }).succeeded { return true }
        let run = try await git(whole)
        guard run.succeeded else { throw BackupError("cannot bundle \(repository): \(run.lastError)") }
        return false
    }

    /// Fetches every ref of the bundle `file` into `repository`, checking every object, and
    /// only ever moving a ref forward.
    static func fetch(_ file: String, into repository: String) async throws(BackupError) -> ProgramRun {
        try await git([
            "-c", "fetch.fsckObjects=true", "--git-dir", repository, "fetch", "-q", "--no-write-fetch-head", file, "refs/*:refs/*",
        ])
    }

    static func git(_ arguments: [String]) async throws(BackupError) -> ProgramRun {
        do {
            return try await ProgramRun.run("git", arguments, environment: ["GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"])
        } catch {
            throw BackupError("\(error.message); install git")
        }
    }
}
