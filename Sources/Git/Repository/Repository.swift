import CGit2
import GitFormat

/// A git repository with a working tree, opened through libgit2.
///
/// The repository owns its `git_repository` handle and frees it once, when the last
/// reference goes away. libgit2 handles are not thread-safe: a repository has one owner,
/// and is not `Sendable`.
public final class Repository {
    let handle: OpaquePointer
    /// New objects waiting to be written as one pack (see ``packingWrites(_:)``).
    var pendingPack: PackWriter?
    /// Whether ``packingWrites(_:)`` gathers new objects into packs Cairn writes itself
    /// (into `objects/pack`). Off once new objects are kept in memory
    /// (``keepNewObjectsInMemory()``).
    var packsWrites = true
    /// Whether this handle reads objects from where git's environment put them (a push's
    /// quarantine, `GIT_OBJECT_DIRECTORY`), which a handle opened on the folder would not
    /// see (``openFromEnvironment()``).
    var readsObjectsFromEnvironment = false
    /// The large trees this handle wrote, read back from memory (``WrittenTrees``).
    var writtenTrees = WrittenTrees()

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        git_repository_free(handle)
    }

    /// Opens the repository whose working tree (or `.git` folder) is `path`
    /// (`git_repository_open_ext`, without searching parent folders).
    ///
    /// Its pack indexes are checked first (``checkPackIndexes()``) unless `checkingPacks` is
    /// false, for code that must reach a damaged repository's configuration and references.
    public convenience init(openingAt path: String, checkingPacks: Bool = true) throws(GitError) {
        try GitLibrary.ensureReady()
        var repository: OpaquePointer?
        try check(
            git_repository_open_ext(&repository, path, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil),
            "git_repository_open_ext")
        self.init(handle: repository!)
        if checkingPacks { try checkPackIndexes() }
    }

    /// Another handle on this repository, for another thread: libgit2's handles are not
    /// thread-safe, but two of them on the same folder may be used at once. Nil when libgit2
    /// was built without threads, and for a hook's repository, whose new objects wait where
    /// only its own handle looks.
    public func openedForAnotherThread() throws(GitError) -> Repository? {
        try folderForAnotherThread.map { (folder) throws(GitError) in try Repository(openingAt: folder, checkingPacks: false) }
    }

    /// The folder ``openedForAnotherThread()`` opens, nil when it opens none: for a thread
    /// that opens its handle itself, without touching this one.
    public var folderForAnotherThread: String? {
        GitLibrary.isBuiltForThreads && !readsObjectsFromEnvironment ? gitdir : nil
    }

    /// Opens the repository a git hook runs in, as git describes it in the environment
    /// (`GIT_DIR`, and `GIT_OBJECT_DIRECTORY` / `GIT_ALTERNATE_OBJECT_DIRECTORIES`, where a
    /// push's objects wait until its hooks accept it), else the one around the current folder
    /// (`git_repository_open_ext` with `GIT_REPOSITORY_OPEN_FROM_ENV` and no path, the only
    /// way libgit2 reads `GIT_DIR`).
    public static func openFromEnvironment() throws(GitError) -> Repository {
        try GitLibrary.ensureReady()
        var repository: OpaquePointer?
        try check(
            git_repository_open_ext(&repository, nil, GIT_REPOSITORY_OPEN_FROM_ENV.rawValue, nil),
            "git_repository_open_ext")
        let opened = Repository(handle: repository!)
        opened.readsObjectsFromEnvironment = true
        // A hook writes nothing of its own: git directs the objects of a push not yet
        // accepted (the quarantine), and some servers run hooks without one.
        try opened.keepNewObjectsInMemory()
        return opened
    }

    /// Creates a repository at `path`, making the folder if needed, with `initialBranch` as the
    /// unborn HEAD (`git_repository_init_ext`): a normal one with a working tree, or a bare one
    /// (a remote) when `bare` is set.
    public static func create(at path: String, initialBranch: String, bare: Bool = false) throws(GitError) -> Repository {
        try GitLibrary.ensureReady()
        var options = git_repository_init_options()
        try check(
            git_repository_init_options_init(&options, UInt32(GIT_REPOSITORY_INIT_OPTIONS_VERSION)),
            "git_repository_init_options_init")
        options.flags =
            GIT_REPOSITORY_INIT_MKPATH.rawValue | GIT_REPOSITORY_INIT_NO_REINIT.rawValue
            | (bare ? GIT_REPOSITORY_INIT_BARE.rawValue : 0)
        var repository: OpaquePointer?
        let result = initialBranch.withCString { branch in
            options.initial_head = branch
            return git_repository_init_ext(&repository, path, &options)
        }
        try check(result, "git_repository_init_ext")
        return Repository(handle: repository!)
    }

    /// The folder of the working tree, with a trailing `/` (`git_repository_workdir`).
    public var workdir: String {
        git_repository_workdir(handle).map { String(cString: $0) } ?? ""
    }

    /// Whether the repository has no working tree (a remote) (`git_repository_is_bare`).
    public var isBare: Bool { git_repository_is_bare(handle) == 1 }

    /// The `.git` folder, with a trailing `/` (`git_repository_path`).
    public var gitdir: String {
        String(cString: git_repository_path(handle))
    }

    /// Sets a string value in the repository's own configuration (`.git/config`),
    /// through `git_config_set_string`.
    public func setConfig(_ key: String, to value: String) throws(GitError) {
        var config: OpaquePointer?
        try check(git_repository_config(&config, handle), "git_repository_config")
        defer { git_config_free(config) }
        try check(git_config_set_string(config, key, value), "git_config_set_string")
    }

    /// Removes a value from the repository's own configuration (`git_config_delete_entry`);
    /// a key that is not set is no error.
    public func removeConfig(_ key: String) throws(GitError) {
        var config: OpaquePointer?
        try check(git_repository_config(&config, handle), "git_repository_config")
        defer { git_config_free(config) }
        let result = git_config_delete_entry(config, key)
        if result == GIT_ENOTFOUND.rawValue { return }
        try check(result, "git_config_delete_entry")
    }

    /// Reads a string value of the repository's configuration (`git_config_get_string_buf`);
    /// nil when it is not set.
    public func config(_ key: String) throws(GitError) -> String? {
        var config: OpaquePointer?
        try check(git_repository_config_snapshot(&config, handle), "git_repository_config_snapshot")
        defer { git_config_free(config) }
        var value: UnsafePointer<CChar>?
        let result = git_config_get_string(&value, config, key)
        if result == GIT_ENOTFOUND.rawValue { return nil }
        try check(result, "git_config_get_string")
        return value.map { String(cString: $0) }
    }
}

extension Repository {
    /// Keeps every object written from now on in memory (libgit2's mempack backend, placed
    /// before the repository's own folders), never in the repository: for code that only
    /// checks, as a hook or an audit merging again what it received, so that it leaves
    /// nothing behind whoever runs it. Objects already there are read as before.
    public func keepNewObjectsInMemory() throws(GitError) {
        guard packsWrites else { return }
        var backend: UnsafeMutablePointer<git_odb_backend>?
        try check(git_mempack_new(&backend), "git_mempack_new")
        // The highest priority: libgit2 writes to the first backend that writes.
        let added = try withObjectDatabase { database in git_odb_add_backend(database, backend, 1_000) }
        if added != 0 {
            backend?.pointee.free(backend)
            try check(added, "git_odb_add_backend")
        }
        packsWrites = false
    }
}
