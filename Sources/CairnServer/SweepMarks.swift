import CairnCore
import CairnMerge
import CairnSystem
import Git
import GitFormat

/// The pushes of a user's bare repository that may have left assets behind, marked by the
/// pre-receive hook for the post-receive hook: one file per push in `cairn/sweep/`, named by
/// the commit it moves `main` to and holding `<old> <new>`.
///
/// A push can leave an asset behind only when it changes or removes a pointer file under
/// `.cairn/assets/`, which the pre-receive hook sees from two tree entries. Every other push
/// (nearly all of them) leaves no mark, and the post-receive script, finding none with the
/// shell's own globbing, starts no program.
///
/// A run of the post-receive hook sweeps every mark whose commit `main` has reached, its own
/// and any other push left while the two ran side by side, then removes it. A mark whose
/// push never landed (refused after the pre-receive hook, by a lost race for the branch) is
/// removed once it is an hour old.
public struct SweepMarks {
    /// The folder of the marks, in the repository.
    public static let folder = "cairn/sweep"
    /// How long a mark whose commit `main` has not reached is kept (seconds).
    static let staleAfter = 3_600

    let repository: Repository

    var path: String {
        let gitdir = repository.gitdir.hasSuffix("/") ? String(repository.gitdir.dropLast()) : repository.gitdir
        return gitdir + "/" + Self.folder
    }

    /// Whether moving `main` from `old` to `new` changes or removes an asset's pointer: the
    /// `.cairn/assets` folder of `old`'s tree exists and is not `new`'s.
    static func mayLeaveAssets(_ repository: Repository, from old: ObjectID?, to new: ObjectID) throws -> Bool {
        guard let old else { return false }
        guard let before = try repository.entry(at: StoreLayout.assetsFolder, inTree: repository.commit(old).treeID) else { return false }
        return try repository.entry(at: StoreLayout.assetsFolder, inTree: repository.commit(new).treeID)?.id != before.id
    }

    /// Marks the push that moves `main` from `old` to `new`.
    func mark(from old: ObjectID, to new: ObjectID) throws(CairnError) {
        try FileSystem.makeFolders(path)
        try FileSystem.writeAtomically(Array("\(old.hex) \(new.hex)\n".utf8), to: path + "/" + new.hex)
    }

    /// The marked pushes `main` has reached, each with the file that marks it; marks of pushes
    /// that did not land within ``staleAfter`` are removed.
    func landed() throws -> [(old: ObjectID, new: ObjectID, file: String)] {
        guard let main = try repository.reference("refs/heads/" + Store.branch) else { return [] }
        var found: [(old: ObjectID, new: ObjectID, file: String)] = []
        for name in FileSystem.names(in: path) {
            let file = path + "/" + name
            guard let bytes = try? FileSystem.read(file) else { continue }
            let fields = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isWhitespace)
            guard fields.count == 2, let old = ObjectID(hex: String(fields[0])), let new = ObjectID(hex: String(fields[1])) else {
                _ = try? FileSystem.removeFile(file)
                continue
            }
            // A commit this repository does not hold (a push that never landed) is no ancestor.
            if new == main || (try? repository.isDescendant(main, of: new)) == true {
                found.append((old, new, file))
            } else if case .success(let status) = Syscalls.status(of: file, followingLinks: false),
                Syscalls.now().seconds - status.modified.seconds > Self.staleAfter
            {
                _ = try? FileSystem.removeFile(file)
            }
        }
        return found
    }
}
