import Git
import GitFormat

/// The id of a tree the store wrote to its repository (a merge's result that no checkpoint
/// holds yet), as `git ls-tree` and `git diff` take it.
public struct TreeID: Hashable, Sendable, CustomStringConvertible {
    /// The tree's id, for the store's own calls into git.
    package let objectID: ObjectID

    package init(_ objectID: ObjectID) {
        self.objectID = objectID
    }

    /// The 40-digit hexadecimal form.
    public var hex: String { objectID.hex }

    public var description: String { objectID.hex }
}
