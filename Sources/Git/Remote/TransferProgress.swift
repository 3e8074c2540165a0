/// How far a fetch or a push has come, as libgit2 reports it while it transfers.
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
}
