import CGit2

/// libgit2's process-wide set-up, done once before the first repository is opened.
///
/// - `git_libgit2_init`.
/// - The global, XDG, system and program-data configuration search paths are cleared, so a
///   store never reads `~/.gitconfig` or `/etc/gitconfig`: its behaviour and its committer
///   identity are its own, whatever the machine's git is set up to do.
/// - `GIT_OPT_ENABLE_FSYNC_GITDIR`: objects, refs and the index are fsynced as they are
///   written, so a checkpoint that returned survives a crash of the machine.
/// - `GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION`: objects read back are checked against their ids.
enum GitLibrary {
    private static let setUp: Result<Void, GitError> = {
        do throws(GitError) {
            try check(git_libgit2_init(), "git_libgit2_init")
            for level in [GIT_CONFIG_LEVEL_PROGRAMDATA, GIT_CONFIG_LEVEL_SYSTEM,
                          GIT_CONFIG_LEVEL_XDG, GIT_CONFIG_LEVEL_GLOBAL] {
                try check(cgit2_set_search_path(level, ""), "git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH)")
            }
            try check(cgit2_enable_fsync_gitdir(1), "git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR)")
            try check(cgit2_enable_strict_hash_verification(1),
                      "git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION)")
            return .success(())
        } catch {
            return .failure(error)
        }
    }()

    /// Runs the set-up the first time it is called; later calls return its outcome.
    static func ensureReady() throws(GitError) {
        try setUp.get()
    }
}
