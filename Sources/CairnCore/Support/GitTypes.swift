import Git

// The git types the store's public API hands out, named here so an app (or the command
// line) uses them without importing the Git module.

/// How far a fetch or a push has come.
public typealias TransferProgress = Git.TransferProgress
/// A user name and password for a remote.
public typealias Credentials = Git.Credentials
