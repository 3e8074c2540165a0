import CairnSystem

extension IndexEntry {
    /// An entry for the file at `absolutePath`, staged at `path` with blob `id`, carrying the
    /// file's stat data (`lstat`) so git sees it unchanged.
    package init(describingFileAt absolutePath: String, path: String, id: ObjectID) throws(GitFormatError) {
        let info: Syscalls.FileStatus
        switch Syscalls.status(of: absolutePath, followingLinks: false) {
        case .success(let status): info = status
        case .failure(let error): throw posixFailure("lstat", absolutePath, error)
        }
        self.init(path: path, id: id)
        ctimeSeconds = UInt32(truncatingIfNeeded: info.changed.seconds)
        ctimeNanoseconds = UInt32(truncatingIfNeeded: info.changed.nanoseconds)
        mtimeSeconds = UInt32(truncatingIfNeeded: info.modified.seconds)
        mtimeNanoseconds = UInt32(truncatingIfNeeded: info.modified.nanoseconds)
        device = UInt32(truncatingIfNeeded: info.device)
        inode = UInt32(truncatingIfNeeded: info.inode)
        mode = info.permissions & 0o111 != 0 ? 0o100755 : 0o100644
        uid = info.owner
        gid = info.group
        size = UInt32(truncatingIfNeeded: info.size)
    }
}
