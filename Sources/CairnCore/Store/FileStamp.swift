#if canImport(Glibc)
import Glibc
#endif

/// What `stat` says of a file that changes whenever its content does: the file (device and
/// inode), its size, and its modification and change times. The change time (`ctime`) is set
/// by the kernel on every write, rename or `chmod`, and no program can set it back.
struct FileStamp: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: timespec
    var changed: timespec

    /// The stamp of the file at `path`; nil when there is none (or it is not a plain file).
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim
        changed = info.st_ctim
    }

    static func == (left: FileStamp, right: FileStamp) -> Bool {
        left.device == right.device && left.inode == right.inode && left.size == right.size
            && left.modified.tv_sec == right.modified.tv_sec && left.modified.tv_nsec == right.modified.tv_nsec
            && left.changed.tv_sec == right.changed.tv_sec && left.changed.tv_nsec == right.changed.tv_nsec
    }

    /// Whether the file last changed at least `seconds` before `now`. A file that changed just
    /// now may change again within the same tick of the file system's clock and keep its
    /// stamp (git calls such an index entry "racily clean"): only older files are trusted.
    func isSettled(seconds: Double, at now: timespec) -> Bool {
        let age = Double(now.tv_sec - changed.tv_sec) + Double(now.tv_nsec - changed.tv_nsec) / 1e9
        return age >= seconds
    }

    /// The real time, which the kernel's change times are taken from.
    static func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }
}
