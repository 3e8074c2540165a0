#if canImport(Glibc)
import Glibc
#endif

extension IndexEntry {
    /// An entry for the file at `absolutePath`, staged at `path` with blob `id`, carrying the
    /// file's stat data (`lstat`) so git sees it unchanged.
    package init(describingFileAt absolutePath: String, path: String, id: ObjectID) throws(GitFormatError) {
        var info = stat()
        guard lstat(absolutePath, &info) == 0 else { throw posixFailure("lstat", absolutePath) }
        self.init(path: path, id: id)
        ctimeSeconds = UInt32(truncatingIfNeeded: info.st_ctim.tv_sec)
        ctimeNanoseconds = UInt32(truncatingIfNeeded: info.st_ctim.tv_nsec)
        mtimeSeconds = UInt32(truncatingIfNeeded: info.st_mtim.tv_sec)
        mtimeNanoseconds = UInt32(truncatingIfNeeded: info.st_mtim.tv_nsec)
        device = UInt32(truncatingIfNeeded: info.st_dev)
        inode = UInt32(truncatingIfNeeded: info.st_ino)
        mode = info.st_mode & 0o111 != 0 ? 0o100755 : 0o100644
        uid = info.st_uid
        gid = info.st_gid
        size = UInt32(truncatingIfNeeded: info.st_size)
    }
}
