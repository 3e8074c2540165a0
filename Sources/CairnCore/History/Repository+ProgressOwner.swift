import CairnMerge
import Git
import GitFormat

extension Repository {
    /// The folder's name without `.git`: a server's bare repository is named after whose
    /// progress (or which content item) it holds.
    package var bareName: String {
        var name = FileSystem.lastComponent(of: gitdir.hasSuffix("/") ? String(gitdir.dropLast()) : gitdir)
        if name.hasSuffix(".git") { name.removeLast(4) }
        return name
    }

    /// The user whose progress a repository holds: its `cairn.uid` (which `cairn server init`
    /// and a store set), else the `uid` its `HEAD` names in `.cairn/store.json` (a clone made
    /// by another git tool), else its ``bareName``.
    package var progressOwner: String {
        ((try? config("cairn.uid")) ?? nil).flatMap { $0.isEmpty ? nil : $0 } ?? identityUID ?? bareName
    }

    /// The `uid` of the store's identity file at `HEAD`; nil when there is none.
    var identityUID: String? {
        guard let head = try? reference("HEAD"), let tree = try? commit(head).treeID,
            let entry = try? entry(at: StoreLayout.identityFile, inTree: tree), !entry.isTree,
            let bytes = try? blobContent(entry.id), case .string(let uid)? = (try? JSONParser().parse(bytes))?.field("uid"),
            !uid.isEmpty
        else { return nil }
        return uid
    }

    /// Whether the repository holds a store's history: its `HEAD` has the identity file of a
    /// store (a server's content items and other repositories do not).
    package var holdsProgress: Bool { identityUID != nil }
}
