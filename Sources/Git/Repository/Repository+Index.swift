import CGit2
import GitFormat

extension Repository {
    /// The repository's index, to be written in the form its `core.splitIndex` asks for.
    public func openIndex() throws(GitError) -> RepositoryIndex {
        let splitIndex = try configFlag("core.splitIndex")
        return RepositoryIndex(try converting { () throws(GitFormatError) in try Index.open(gitdir: gitdir, splitIndex: splitIndex) })
    }

    /// A boolean of the repository's configuration, read as git reads booleans (`true`,
    /// `yes`, `on`, `1`, …) (`git_config_get_bool`); nil when it is not set.
    public func configFlag(_ key: String) throws(GitError) -> Bool? {
        var config: OpaquePointer?
        try check(git_repository_config_snapshot(&config, handle), "git_repository_config_snapshot")
        defer { git_config_free(config) }
        var value: Int32 = 0
        let result = git_config_get_bool(&value, config, key)
        if result == GIT_ENOTFOUND.rawValue { return nil }
        try check(result, "git_config_get_bool")
        return value != 0
    }
}
