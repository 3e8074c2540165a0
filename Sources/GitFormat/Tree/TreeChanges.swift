/// A list of tree updates sorted into folders: below each folder, the changes to its files
/// by name and the folders below it, so that a tree update visits only the folders on the
/// updated paths.
package final class TreeChanges {
    /// What becomes of one file of a folder.
    package enum Change {
        /// The file is put as the blob `id` with the file mode `mode`.
        case upsert(id: ObjectID, mode: UInt32)
        /// The file is removed.
        case remove
    }

    /// The changes to this folder's files, by name.
    package private(set) var files: [[UInt8]: Change] = [:]
    /// The folders below this one that have changes, by name.
    package private(set) var folders: [[UInt8]: TreeChanges] = [:]

    private init() {}

    /// Sorts `updates` into folders. An empty path component, a path given twice, or a
    /// path given as a file and also as a folder of another path is an error.
    package static func sorting(_ updates: [TreeUpdate]) throws(GitFormatError) -> TreeChanges {
        let root = TreeChanges()
        for update in updates {
            let path: String
            let change: Change
            switch update {
            case .upsert(let updatePath, let id, let mode):
                path = updatePath
                change = .upsert(id: id, mode: mode)
            case .remove(let updatePath):
                path = updatePath
                change = .remove
            }
            var components = path.split(separator: "/", omittingEmptySubsequences: false).map { Array($0.utf8) }
            guard let name = components.popLast(), !name.isEmpty, !components.contains(where: \.isEmpty) else {
                throw failure(.invalidUpdate, "invalid path \(path) in a tree update", "cairn_tree_update")
            }
            var folder = root
            for component in components {
                guard folder.files[component] == nil else {
                    throw failure(.invalidUpdate, "duplicate entries given for \(path)", "cairn_tree_update")
                }
                if let next = folder.folders[component] {
                    folder = next
                } else {
                    let next = TreeChanges()
                    folder.folders[component] = next
                    folder = next
                }
            }
            guard folder.files.updateValue(change, forKey: name) == nil, folder.folders[name] == nil else {
                throw failure(.invalidUpdate, "duplicate entries given for \(path)", "cairn_tree_update")
            }
        }
        return root
    }
}
