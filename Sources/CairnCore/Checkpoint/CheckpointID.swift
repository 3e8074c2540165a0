import Git
import GitFormat

/// The name of a checkpoint: the id of its git commit, the 40 hexadecimal digits `git log`
/// shows for it too.
public struct CheckpointID: Hashable, Sendable, CustomStringConvertible {
    /// The commit's id, for the store's own calls into git.
    package let objectID: ObjectID

    package init(_ objectID: ObjectID) {
        self.objectID = objectID
    }

    /// Parses 40 hexadecimal digits; nil for anything else.
    public init?(hex: String) {
        guard let id = ObjectID(hex: hex) else { return nil }
        objectID = id
    }

    /// The 40-digit hexadecimal form.
    public var hex: String { objectID.hex }

    /// The first seven digits, as `git log --oneline` and Cairn's messages show them.
    public var short: String { objectID.short }

    public var description: String { objectID.hex }
}
