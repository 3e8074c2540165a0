import Git

/// How far a fetch or a push has come.
///
/// The Git module reports the same four numbers in a type of its own, and the store hands
/// each step on as this one. An alias would be one type less, but an app's code reading its
/// fields would then have to import Git, which is no product of the package (Swift's
/// member import visibility): the public type lives where an app can import it.
public struct TransferProgress: Sendable, Hashable {
    public enum Direction: Sendable, Hashable {
        /// Objects arriving (fetch, clone).
        case receiving
        /// Objects leaving (push).
        case sending
    }

    public var direction: Direction
    /// Objects transferred so far.
    public var objects: Int
    /// Objects to transfer in all (0 while unknown).
    public var totalObjects: Int
    /// Bytes transferred so far.
    public var bytes: Int

    public init(direction: Direction, objects: Int, totalObjects: Int, bytes: Int) {
        self.direction = direction
        self.objects = objects
        self.totalObjects = totalObjects
        self.bytes = bytes
    }

    /// The step libgit2 reported.
    init(_ step: Git.TransferProgress) {
        direction = step.direction == .receiving ? .receiving : .sending
        objects = step.objects
        totalObjects = step.totalObjects
        bytes = step.bytes
    }
}
