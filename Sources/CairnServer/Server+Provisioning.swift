import CairnCore
import CairnMerge
import CairnSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Server {
    /// Makes `folder/<uid>.git` as ``createRepositories(in:uids:cairn:schemaSet:)`` makes it,
    /// unless it exists: the repository of a user who syncs for the first time. Returns
    /// whether it made it.
    ///
    /// It is made whole in a folder of its own beside it, then renamed into place in one step:
    /// a request never finds half a repository, and when two first syncs of one user come at
    /// once, one rename wins and the other's copy is removed, both ending on the one
    /// repository.
    @discardableResult
    public static func provision(uid: String, in folder: String, cairn: String, schemaSet: SchemaSetFiles? = nil) throws(CairnError) -> Bool
    {
        try Home.validate(uid: uid)
        let final = folder + "/\(uid).git"
        if FileSystem.kind(final) != nil { return false }
        try FileSystem.makeFolders(folder)
        let workspace: String
        switch Syscalls.makeUniqueFolder(folder + "/.provisioning-XXXXXX") {
        case .success(let made): workspace = made
        case .failure(let error): throw CairnError(.io, "cannot provision the repository of \(uid) in \(folder): \(error)")
        }
        defer { try? FileManager.default.removeItem(atPath: workspace) }
        _ = try createRepositories(in: workspace, uids: [uid], cairn: cairn, schemaSet: schemaSet)
        switch Syscalls.rename(workspace + "/\(uid).git", to: final) {
        case .success:
            return true
        case .failure where FileSystem.kind(final) == .folder:
            // Another request made it first.
            return false
        case .failure(let error):
            throw CairnError(.io, "cannot provision \(final): \(error)")
        }
    }
}
