/// Whom a ``GitServer`` lets reach a repository.
public enum GitServerAccess: Sendable {
    /// Only its owner: `/git/<uid>.git` takes the password of user `<uid>` alone, and every
    /// other user, like an anonymous client, is asked for credentials (401). What a
    /// deployment of Cairn serves.
    case owner
    /// Every user with a right password reaches every repository, so only the repository's
    /// hook (which sees `REMOTE_USER`) stands between a user and another's progress.
    case anyUser
}
