import GitFormat

/// Where a repository's `HEAD` points.
public enum HeadTarget: Sendable, Hashable {
    /// On a branch (its full reference name, such as `refs/heads/main`), born or not yet.
    case branch(String)
    /// Detached, at a commit.
    case detached(ObjectID)
}
