/// One change ``TreeMerge`` makes to a tree: an entry put at a path, or a path removed.
package enum MergeUpdate<BlobID: Hashable>: Hashable {
    case upsert(path: String, entry: MergeEntry<BlobID>)
    case remove(path: String)

    /// The path the update puts or removes.
    package var path: String {
        switch self {
        case .upsert(let path, _), .remove(let path): path
        }
    }
}

extension MergeUpdate: Sendable where BlobID: Sendable {}
