import CairnMerge

/// One thing a device of a ``Story`` does: write, delete, checkpoint, sync, lose or regain
/// its network, or have its clock set.
public enum Step: Hashable, Sendable, CustomStringConvertible {
    /// Writes the whole document at `path` (a full document path, `users/u1/books/b1`).
    case put(device: String, path: String, value: JSONValue)
    /// Writes the document at `path` as its current version (an empty object when it has
    /// none) with `patch` applied as a JSON merge patch (RFC 7386: `null` removes a field).
    case patch(device: String, path: String, patch: JSONValue)
    /// Deletes the document at `path` (with `recursive`, its subcollections too).
    case remove(device: String, path: String, recursive: Bool)
    /// Commits the device's pending writes.
    case checkpoint(device: String)
    /// Syncs the device with the remote: checkpoint, fetch, merge, push. While the device is
    /// offline the sync must fail as a network failure, with nothing pushed.
    case sync(device: String)
    /// The device loses its network: its remote cannot be reached until it is online again.
    case offline(device: String)
    /// The device reaches its remote again.
    case online(device: String)
    /// Sets the device's clock (milliseconds since 1970; nil: unknown): what its merges judge
    /// stamps from the future by, and the time its checkpoints are dated with.
    case clock(device: String, milliseconds: Int64?)

    /// The device that takes the step.
    public var device: String {
        switch self {
        case .put(let device, _, _), .patch(let device, _, _), .remove(let device, _, _), .checkpoint(let device),
            .sync(let device), .offline(let device), .online(let device), .clock(let device, _):
            device
        }
    }

    public var description: String {
        switch self {
        case .put(let device, let path, _): "put \(path) on \(device)"
        case .patch(let device, let path, _): "patch \(path) on \(device)"
        case .remove(let device, let path, let recursive): "rm\(recursive ? " -r" : "") \(path) on \(device)"
        case .checkpoint(let device): "checkpoint on \(device)"
        case .sync(let device): "sync \(device)"
        case .offline(let device): "\(device) goes offline"
        case .online(let device): "\(device) goes online"
        case .clock(let device, let time): "\(device)'s clock set to \(time.map(String.init) ?? "unknown")"
        }
    }
}
