import Git
import GitFormat

/// What ``Store/restore(_:from:)`` did.
public struct RestoreResult: Sendable {
    /// The checkpoint of pending writes made first.
    public var checkpoint: CheckpointResult
    /// The checkpoint that restored the documents: its changes are the documents restored
    /// (and the documents whose counts follow them). No commit: nothing differed, or only the
    /// files did and the last checkpoint held the restored version already.
    public var restore: CheckpointResult
    /// How many of the named documents were restored (0: all were as the source holds them).
    public var restored: Int
    /// Where the documents came from: `origin/main` (the remote's version as of the last
    /// sync) or the revision given.
    public var sourceName: String
    /// The commit the source named; nil for a remote that holds no commit yet.
    public var source: ObjectID?
    /// Whether the source is the remote's version.
    public var fromRemote: Bool

    /// Where the documents went: `the remote's version (origin/main 1a2b3c4)`, or `its version
    /// at HEAD~1 (1a2b3c4)` (`their` for several).
    public var destination: String {
        if fromRemote {
            return "the remote's version (" + (source.map { "\(sourceName) \($0.short)" } ?? "the remote holds no checkpoint yet") + ")"
        }
        return "\(restored == 1 ? "its" : "their") version at \(sourceName) (\(source?.short ?? "-"))"
    }
}
