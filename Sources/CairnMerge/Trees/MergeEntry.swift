/// A file of a tree as ``TreeMerge`` sees it: the blob that holds its bytes and its mode.
package struct MergeEntry<BlobID: Hashable>: Hashable {
    package var blob: BlobID
    /// git's file mode: `0o100644` a plain file (the only kind a store holds), `0o040000` a
    /// folder.
    package var mode: UInt32

    package init(blob: BlobID, mode: UInt32) {
        self.blob = blob
        self.mode = mode
    }

    /// A plain file holding `blob`: what the merge writes.
    package static func file(_ blob: BlobID) -> MergeEntry {
        MergeEntry(blob: blob, mode: 0o100644)
    }

    /// Whether the entry is a folder, not a file.
    package var isFolder: Bool { mode == 0o040000 }
}

extension MergeEntry: Sendable where BlobID: Sendable {}
