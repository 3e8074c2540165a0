import CairnCore
import CairnMerge
import CairnSystem
import Git

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The server side of Cairn: a folder of per-user bare repositories (`<uid>.git`) that any
/// smart-HTTP git server can serve, each guarded by Cairn's `pre-receive` hook.
public enum Server {
    /// Creates `folder/<uid>.git` for each user: a bare repository on `main` that refuses
    /// non-fast-forward pushes and deletions, checks every object it receives, and runs
    /// `cairn hook pre-receive` (through `cairn`, the path of the tool) on every push. With a
    /// schema set, the hook checks documents against it (copied into `<uid>.git/cairn/schema/`)
    /// whatever the pushed store carries. All users are checked before any is created.
    public static func createRepositories(
        in folder: String, uids: [String], cairn: String,
        schemaSet: SchemaSetFiles? = nil
    ) throws(CairnError) -> [String] {
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
            try createBareRepository(
                at: path, config: ["cairn.uid": uid], cairn: cairn,
                hookComment: """
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
    /// deletions, checks every object it receives, holds `config`, and runs the pre-receive
    /// hook on every push (the hook script starts with `hookComment`) and the post-receive
    /// hook (removing the assets no document points to any more) after a push that changed or
    /// removed an asset's pointer.
    static func createBareRepository(
        at path: String, config: [String: String], cairn: String,
        hookComment: String
    ) throws(CairnError) {
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
        // With the hook program beside the tool, the kernel starts it from the script's first
        // line, and no shell runs before it on each push.
        let program = hookProgramPath(beside: cairn)
        let hook =
            if let program, program.count <= 100, !program.contains(where: { $0 == " " || $0 == "\t" || $0 == "\n" }) {
                "#!\(program) \(ReceiveHook.preReceive.rawValue)\n" + hookComment + "\n"
            } else {
                "#!/bin/sh\n" + hookComment + "\nexec \(hookCommand(.preReceive, program: program, cairn: cairn))\n"
            }
        try FileSystem.makeFolders(path + "/hooks")
        try FileSystem.writeAtomically(Array(hook.utf8), to: path + "/hooks/pre-receive")
        _ = Syscalls.setMode(of: path + "/hooks/pre-receive", to: 0o755)
        // Once a push is in, the assets it left behind leave the server's storage. Only a push
        // that changed or removed an asset's pointer can leave one, and the pre-receive hook
        // marks those (SweepMarks); for every other push the shell finds no mark by its own
        // globbing (git runs the hook in the repository) and starts no program.
        let after = """
            #!/bin/sh
            # Assets no document points to any more are removed from the server (cairn hook post-receive),
            # after a push the pre-receive hook marked in \(SweepMarks.folder)/ for changing or removing an asset.
            for mark in \(SweepMarks.folder)/*; do
                [ -e "$mark" ] && exec \(hookCommand(.postReceive, program: program, cairn: cairn))
            done
            exit 0

            """
        try FileSystem.writeAtomically(Array(after.utf8), to: path + "/hooks/post-receive")
        _ = Syscalls.setMode(of: path + "/hooks/post-receive", to: 0o755)
    }

    /// The name of the program beside the tool that runs the hooks alone.
    public static let hookProgram = "cairn-hook"

    /// The hook program beside the tool `cairn`, if there is one: it starts sooner than the
    /// whole tool, which matters on every push.
    static func hookProgramPath(beside cairn: String) -> String? {
        let beside = FileSystem.parent(of: cairn) + "/" + hookProgram
        return cairn.hasPrefix("/") && Syscalls.isExecutableFile(beside) ? beside : nil
    }

    /// What a hook script runs for `hook`, quoted for the shell: the hook program when there
    /// is one (`cairn-hook post-receive`), else the tool's own `cairn hook post-receive`.
    static func hookCommand(_ hook: ReceiveHook, program: String?, cairn: String) -> String {
        if let program { return "'\(program)' \(hook.rawValue)" }
        return "'\(cairn)' hook \(hook.rawValue)"
    }
}
