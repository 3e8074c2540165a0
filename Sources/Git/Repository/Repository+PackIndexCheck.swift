import CGit2
import CairnSystem
import GitFormat

extension Repository {
    /// Checks every pack index of the repository against its pack before libgit2 reads
    /// either (``PackIndex/check(_:pack:)``).
    ///
    /// libgit2 1.5 follows the offsets of a damaged index out of the mapped pack and crashes
    /// the process (later versions bound that read); a damaged index must be an error of the
    /// store instead: one libgit2 would class with its object database's, so that it counts
    /// as damage (``GitError/isDamage``). A pack removed while it is checked (another
    /// process merged it into a new one, as Cairn and `git gc` do) is no damage: passed over.
    public func checkPackIndexes() throws(GitError) {
        let folder = gitdir + "objects/pack/"
        for pack in packs() {
            let index = folder + pack.name + ".idx"
            do {
                try Self.checkPackIndex(index, pack: folder + pack.name + ".pack")
            } catch {
                if case .failure(.noSuchFile) = Syscalls.status(of: index, followingLinks: true) { continue }
                throw error
            }
        }
    }

    /// Checks one pack index against its pack; see ``checkPackIndexes()``.
    static func checkPackIndex(_ path: String, pack: String) throws(GitError) {
        do throws(GitFormatError) {
            try PackIndex.check(path, pack: pack)
        } catch {
            var failure = GitError(error)
            if error.code == .corrupt { failure.category = Int32(GIT_ERROR_ODB.rawValue) }
            throw failure
        }
    }
}
