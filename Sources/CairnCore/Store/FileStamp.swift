import CairnSystem

/// What `stat` says of a file that changes whenever its content does: the file (device and
/// inode), its size, and its modification and change times. The change time (`ctime`) is set
/// by the kernel on every write, rename or `chmod`, and no program can set it back.
struct FileStamp: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modified: Syscalls.Time
    var changed: Syscalls.Time

    /// The stamp of the file at `path`; nil when there is none (or it is not a plain file,
    /// or a folder when `kind` asks for one: a folder's stamp changes when a file is added to
    /// it, removed or renamed in it, not when a file in it is written in place).
    init?(path: String, kind: Syscalls.FileStatus.Kind = .file) {
        guard case .success(let status) = Syscalls.status(of: path, followingLinks: true), status.kind == kind else { return nil }
        device = status.device
        inode = status.inode
        size = status.size
        modified = status.modified
        changed = status.changed
    }

    /// Whether the file last changed at least `seconds` before `now`. A file that changed just
    /// now may change again within the same tick of the file system's clock and keep its
    /// stamp (git calls such an index entry "racily clean"): only older files are trusted.
    func isSettled(seconds: Double, at now: Syscalls.Time) -> Bool {
        let age = Double(now.seconds - changed.seconds) + Double(now.nanoseconds - changed.nanoseconds) / 1e9
        return age >= seconds
    }

}
