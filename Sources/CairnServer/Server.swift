#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CairnCore
import CairnMerge
import Git

/// The server side of Cairn: a folder of per-user bare repositories (`<uid>.git`) that any
/// smart-HTTP git server can serve, each guarded by Cairn's `pre-receive` hook.
public enum Server {
    /// Creates `folder/<uid>.git` for each user: a bare repository on `main` that refuses
    /// non-fast-forward pushes and deletions, checks every object it receives, and runs
    /// `cairn hook pre-receive` (through `cairn`, the path of the tool) on every push. With a
    /// schema set, the hook checks documents against it (copied into `<uid>.git/cairn/schema/`)
    /// whatever the pushed store carries. All users are checked before any is created.
    public static func createRepositories(in folder: String, uids: [String], cairn: String,
                                          schemaSet: SchemaSetFiles? = nil) throws(CairnError) -> [String] {
        guard !uids.isEmpty else {
            throw CairnError(.invalidInput, "name at least one user", remedy: .nameUsers)
        }
        for uid in uids {
            try Home.validate(uid: uid)
            if FileSystem.kind(folder + "/\(uid).git") != nil {
                throw CairnError(.alreadyExists, "\(folder)/\(uid).git exists already; nothing was created")
            }
        }
        if let schemaSet {
            _ = try SchemaSet(readingProgress: schemaSet, then: "nothing was created")
        }
        var created: [String] = []
        for uid in uids {
            let path = Home.normalize(RemoteURL.absolute(folder, in: FileManager.default.currentDirectoryPath) + "/\(uid).git")
            try createBareRepository(at: path, config: ["cairn.uid": uid], cairn: cairn, hookComment: """
                # Every push to the progress of \(uid) is checked by Cairn: only users/\(uid)/, valid
                # documents, append-only documents never changed, history never rewritten.
                """)
            if let schemaSet {
                let folder = path + "/" + StoreLayout.serverSchemaFolder
                try FileSystem.makeFolders(folder)
                for (name, bytes) in schemaSet.files {
                    try FileSystem.writeAtomically(bytes, to: folder + "/" + name)
                }
            }
            created.append(path)
        }
        return created
    }

    /// Creates the bare repository `path` on `main` that refuses non-fast-forward pushes and
    /// deletions, checks every object it receives, holds `config`, and runs `cairn hook
    /// pre-receive` on every push (the hook script starts with `hookComment`) and `cairn hook
    /// post-receive` after it (removing the assets no document points to any more) when its
    /// asset storage holds any.
    static func createBareRepository(at path: String, config: [String: String], cairn: String,
                                     hookComment: String) throws(CairnError) {
        do {
            let repository = try Repository.create(at: path, initialBranch: Store.branch, bare: true)
            try repository.setConfig("receive.denyNonFastForwards", to: "true")
            try repository.setConfig("receive.denyDeletes", to: "true")
            try repository.setConfig("receive.fsckObjects", to: "true")
            for (key, value) in config.sorted(by: { $0.key < $1.key }) {
                try repository.setConfig(key, to: value)
            }
        } catch {
            throw CairnError.git(error, doing: "cannot create \(path)")
        }
        let hook = "#!/bin/sh\n" + hookComment + "\nexec '\(cairn)' hook pre-receive\n"
        try FileSystem.makeFolders(path + "/hooks")
        try FileSystem.writeAtomically(Array(hook.utf8), to: path + "/hooks/pre-receive")
        _ = Syscalls.setMode(of: path + "/hooks/pre-receive", to: 0o755)
        // Once a push is in, the assets it left behind leave the server's storage. Most
        // repositories store no asset: their hook looks (git runs it in the repository) and
        // starts no tool, which would cost a process start on every push for nothing.
        let after = """
            #!/bin/sh
            # Assets no document points to any more are removed from the server (cairn hook post-receive).
            # With no asset stored (\(AssetSweep.storageConfigKey), else lfs/objects), there is none to remove.
            storage=$(git config --get \(AssetSweep.storageConfigKey)) && [ -n "$storage" ] || storage=lfs/objects
            case "$storage" in /*) ;; *) storage="./$storage" ;; esac
            [ -n "$(find "$storage" -type f -print -quit 2>/dev/null)" ] || exit 0
            exec '\(cairn)' hook post-receive

            """
        try FileSystem.writeAtomically(Array(after.utf8), to: path + "/hooks/post-receive")
        _ = Syscalls.setMode(of: path + "/hooks/post-receive", to: 0o755)
    }
}
