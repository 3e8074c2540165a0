/// One change to apply to a tree: a blob put at a path, or a path removed.
public enum TreeUpdate: Hashable, Sendable {
    /// Puts the blob `id` at `path` (folders made as needed), with the file mode `mode`
    /// (`0o100644` for a normal file).
    case upsert(path: String, id: ObjectID, mode: UInt32)
    /// Removes the entry at `path`; folders left empty disappear.
    case remove(path: String)
}

extension TreeUpdate {
    /// The path the update puts or removes.
    public var path: String {
        switch self {
        case .upsert(let path, _, _), .remove(let path): path
        }
    }
}
