/// A file whose entry differs among the three trees of a merge, with its entry in each (nil
/// where the file is absent).
package struct MergeDifference<BlobID: Hashable>: Hashable {
    /// The file's path from the top of the tree, `/`-separated (`users/u1/books/b1.json`).
    package var path: String
    package var base: MergeEntry<BlobID>?
    package var ours: MergeEntry<BlobID>?
    package var theirs: MergeEntry<BlobID>?

    package init(path: String, base: MergeEntry<BlobID>?, ours: MergeEntry<BlobID>?, theirs: MergeEntry<BlobID>?) {
        self.path = path
        self.base = base
        self.ours = ours
        self.theirs = theirs
    }
}

extension MergeDifference: Sendable where BlobID: Sendable {}
