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
}
