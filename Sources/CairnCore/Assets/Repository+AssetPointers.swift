import CairnMerge
import Git
import GitFormat

extension Repository {
    /// The pointer files of the assets of the document at `document` in `tree` (its own,
    /// not those of the documents below it), with their blobs.
    func assetPointerFiles(of document: DocumentPath, inTree tree: ObjectID) throws -> [String: ObjectID] {
        let folder = StoreLayout.assetFolder(of: document)
        var found: [String: ObjectID] = [:]
        for file in try files(under: folder, inTree: tree) where !file.path.dropFirst(folder.count + 1).contains("/") {
            if let entry = file.entries[0], !entry.isTree { found[file.path] = entry.id }
        }
        return found
    }

    /// The assets the Git LFS pointers of `tree` name, by pointer file.
    func assetPointers(inTree tree: ObjectID) throws -> [String: AssetReference] {
        var pointers: [String: AssetReference] = [:]
        for file in try files(under: StoreLayout.assetsFolder, inTree: tree) {
            guard let entry = file.entries[0], !entry.isTree,
                let reference = AssetReference(pointer: try blobContent(entry.id))
            else { continue }
            pointers[file.path] = reference
        }
        return pointers
    }
}
