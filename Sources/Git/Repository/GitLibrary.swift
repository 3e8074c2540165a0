import CGit2
import CGit2Setup

/// libgit2's process-wide set-up, done once before the first repository is opened.
///
/// - `git_libgit2_init`, with the system's CA certificates noted rather than read: Debian's
///   libgit2 parses all of them at its start (about 5 ms), and most commands never open an
///   https:// connection. ``SocketStream`` reads them before the first connection
///   (``loadCertificates()``; `Sources/CGit2Setup/setup.c` says how).
/// - The global, XDG, system and program-data configuration search paths are cleared, so a
///   store never reads `~/.gitconfig` or `/etc/gitconfig`: its behaviour and its committer
///   identity are its own, whatever the machine's git is set up to do.
/// - `GIT_OPT_ENABLE_FSYNC_GITDIR`: objects, refs and the index are fsynced as they are
///   written, so a checkpoint that returned survives a crash of the machine.
/// - `GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION` on (libgit2's default, set here so no
///   speed-up turns it off unnoticed): every object libgit2 reads is hashed and compared with
///   its id (the documents and trees Cairn reads itself are hashed the same way, faster:
///   ``Repository/readFromBackends(_:type:)``).
///   zlib's Adler-32 checksum covers the bytes of an object's stream, but not what frames it
///   in a pack: a damaged delta base offset, or an index pointing at another object, can give
///   an intact stream of other content. The hash turns that into an error, never content.
/// - `GIT_OPT_ENABLE_STRICT_OBJECT_CREATION` off: building a tree does not read back every
///   object it names (the store wrote them itself). With it on, rewriting a folder of 10,000
///   documents opens 10,000 objects, and a checkpoint's cost follows the folder's size.
/// - `GIT_OPT_SET_CACHE_OBJECT_LIMIT` for trees raised to 4 MiB: a collection of thousands of
///   documents is one large tree, read once per process instead of once per lookup.
/// - ``SocketStream`` registered for libgit2's TCP connections (`git_stream_register`), so
///   connecting, reading and writing time out.
enum GitLibrary {
    private static let setUp: Result<Void, GitError> = {
        do throws(GitError) {
            try check(cgit2_init_deferring_certificates(), "git_libgit2_init")
            for level in [
                GIT_CONFIG_LEVEL_PROGRAMDATA, GIT_CONFIG_LEVEL_SYSTEM,
                GIT_CONFIG_LEVEL_XDG, GIT_CONFIG_LEVEL_GLOBAL,
            ] {
                try check(cgit2_set_search_path(level, ""), "git_libgit2_opts(GIT_OPT_SET_SEARCH_PATH)")
            }
            try check(cgit2_enable_fsync_gitdir(1), "git_libgit2_opts(GIT_OPT_ENABLE_FSYNC_GITDIR)")
            try check(
                cgit2_enable_strict_object_creation(0),
                "git_libgit2_opts(GIT_OPT_ENABLE_STRICT_OBJECT_CREATION)")
            try check(
                cgit2_set_cache_object_limit(GIT_OBJECT_TREE, 4 << 20),
                "git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT)")
            try check(
                cgit2_enable_strict_hash_verification(1),
                "git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION)")
            try SocketStream.register()
            return .success(())
        } catch {
            return .failure(error)
        }
    }()

    /// Runs the set-up the first time it is called; later calls return its outcome.
    static func ensureReady() throws(GitError) {
        try setUp.get()
    }

    /// Reads the CA certificates the set-up noted, once per process; the TLS connections
    /// libgit2 makes verify servers against them. A failure leaves the list empty, as
    /// libgit2's own start does when it cannot read them: a TLS connection then fails its
    /// certificate check.
    /// Returns libgit2's outcome of the reading (0: read, or nothing was noted).
    @discardableResult
    static func loadCertificates() -> Int32 {
        cgit2_load_deferred_certificates()
    }

    /// Whether the CA certificates were noted at the set-up and are not read yet.
    static var certificatesDeferred: Bool {
        cgit2_certificates_deferred() != 0
    }

    /// Whether libgit2 was built for threads: then two repositories opened on the same
    /// folder may be used at once, one per thread (its shared caches are locked).
    static var isBuiltForThreads: Bool {
        git_libgit2_features() & Int32(GIT_FEATURE_THREADS.rawValue) != 0
    }
}
