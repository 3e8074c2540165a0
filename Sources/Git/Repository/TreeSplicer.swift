import GitFormat

/// Builds the trees a set of updates makes of a baseline, folder by folder, by splicing the
/// raw bytes of each changed folder's tree (``RawTree``): unchanged entries are copied as
/// they are, never parsed one by one, and new trees are written as loose objects whose zlib
/// stream stores the bytes without compressing them (``LooseObject``), or into the pending
/// pack.
///
/// A collection of 60,000 documents is one tree of 3 MB; changing one document rewrites it.
/// libgit2's tree builder parses every entry, sorts them again and deflates the result;
/// splicing copies two runs of bytes. The objects are ordinary loose objects that git and
/// libgit2 read as any other (a zlib stream may use stored blocks); packing compresses them.
struct TreeSplicer {
    let repository: Repository
    /// The ids the updated files had before, by path (none for a file that is new).
    private(set) var previous: [String: ObjectID] = [:]

    mutating func apply(_ baseline: ObjectID, _ updates: [TreeUpdate]) throws(GitError) -> ObjectID {
        let root = try converting { () throws(GitFormatError) in try TreeChanges.sorting(updates) }
        if let tree = try write(root, over: baseline, at: []) { return tree }
        return try repository.emptyTree()
    }

    /// Writes the tree that `folder`'s changes make of `treeID` (nil: no tree yet); nil when
    /// the result is empty, so the parent drops it.
    private mutating func write(_ folder: TreeChanges, over treeID: ObjectID?, at location: [UInt8]) throws(GitError) -> ObjectID? {
        let raw = try treeID.map { (id) throws(GitError) in try repository.rawObject(id, type: .tree) } ?? []
        let tree = try converting { () throws(GitFormatError) in try RawTree(raw, id: treeID) }

        // The changes of this folder, with what each puts in its place.
        var splices: [RawTree.Splice] = []
        for (name, change) in folder.files {
            switch change {
            case .upsert(let id, let mode):
                splices.append(RawTree.Splice(name: name, isFolder: false, replacement: RawTree.entry(name: name, mode: mode, id: id)))
            case .remove:
                splices.append(RawTree.Splice(name: name, isFolder: false, replacement: nil))
            }
        }
        for (name, subfolder) in folder.folders {
            let written = try write(subfolder, over: tree.folderID(named: name), at: location + name + [UInt8(ascii: "/")])
            splices.append(
                RawTree.Splice(
                    name: name, isFolder: true,
                    replacement: written.map { RawTree.entry(name: name, mode: 0o040000, id: $0) }))
        }
        let spliced = try converting { () throws(GitFormatError) in try tree.splicing(splices) }
        for file in spliced.previous {
            previous[String(decoding: location + file.name, as: UTF8.self)] = file.id
        }
        if spliced.bytes.isEmpty { return nil }
        if spliced.bytes == raw, let treeID { return treeID }
        if let treeID { repository.writtenTrees.forget(treeID) }
        return try repository.writeLooseObject(spliced.bytes, type: .tree)
    }
}
