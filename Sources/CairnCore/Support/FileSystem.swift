import CairnMerge
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations the store needs, on POSIX calls, each failure a ``CairnError``
/// that names the file and the system's reason.
package enum FileSystem {
    /// Turns a POSIX result (-1 with `errno`) into a throw.
    @discardableResult
    package static func check(_ result: Int32, _ call: String, _ path: String,
                      file: String = #fileID, line: Int = #line) throws(CairnError) -> Int32 {
        guard result == -1 else { return result }
        throw failure(call, path, errno: errno, file: file, line: line)
    }

    package static func failure(_ call: String, _ path: String, errno code: Int32,
                        file: String = #fileID, line: Int = #line) -> CairnError {
        let reason = String(cString: strerror(code))
        return CairnError(.io, "\(call) \(path): \(reason)\(hint(errno: code))", cause: POSIXErrorCode(rawValue: code).map { POSIXError($0) },
                          file: file, line: line)
    }

    /// Whether `code` is the failure of a disk: full (`ENOSPC`, `EDQUOT`), failing (`EIO`) or
    /// read-only (`EROFS`).
    package static func isDiskFailure(_ code: Int32) -> Bool {
        code == ENOSPC || code == EDQUOT || code == EIO || code == EROFS
    }

    /// What to do about a failure of the file system, for the errors a user can act on: a
    /// full disk, a failing one, a read-only one. Empty for the others.
    package static func hint(errno code: Int32) -> String {
        switch code {
        case ENOSPC, EDQUOT: " (the disk is full; free some space and try again)"
        case EIO: " (the disk reported an I/O error; check it, then try again)"
        case EROFS: " (the file system is read-only; make it writable and try again)"
        default: ""
        }
    }

    /// The whole content of a file, or nil when there is no file at `path`.
    package static func read(_ path: String) throws(CairnError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd == -1 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw failure("open", path, errno: errno)
        }
        defer { close(fd) }
        var info = stat()
        try check(fstat(fd, &info), "stat", path)
        if (info.st_mode & S_IFMT) == S_IFDIR { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while true {
            if filled == bytes.count { bytes.append(contentsOf: repeatElement(0, count: 4096)) }
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            }
            if count == -1 {
                if errno == EINTR { continue }
                throw failure("read", path, errno: errno)
            }
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Replaces the file at `path` with `bytes` atomically: a temporary file beside it is
    /// written and renamed over it, so a reader or a crash sees the old content or the new,
    /// never a mix. With `durable`, the data is fsynced before the rename.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = false) throws(CairnError) {
        let temporary = parent(of: path) + "/\(StoreLayout.temporaryFilePrefix)\(getpid())-" + lastComponent(of: path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd == -1 { throw failure("create", temporary, errno: errno) }
        var isOpen = true
        do throws(CairnError) {
            try writeAll(bytes, to: fd, path: path)
            if durable { try check(fsync(fd), "fsync", path) }
            isOpen = false
            try check(close(fd), "close", path)
            try check(rename(temporary, path), "rename", path)
        } catch {
            if isOpen { close(fd) }
            unlink(temporary)
            throw error
        }
    }

    /// Writes `bytes` to `path` in place (created, or cut to nothing first): for files nothing
    /// reads until the write is over.
    package static func write(_ bytes: [UInt8], to path: String) throws(CairnError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd == -1 { throw failure("create", path, errno: errno) }
        do throws(CairnError) {
            try writeAll(bytes, to: fd, path: path)
        } catch {
            close(fd)
            throw error
        }
        try check(close(fd), "close", path)
    }

    /// Replaces the content of the existing file `path` with `bytes` atomically, without
    /// creating a file: the bytes go to `spare` (a file on the same file system, made on first
    /// use), and the two swap names in one `renameat2(RENAME_EXCHANGE)`. A reader or a crash
    /// sees the old document or the new, as with ``writeAtomically(_:to:durable:)``; the spare
    /// then holds the old content, overwritten by the next write.
    ///
    /// Creating a file is what a write costs most on ext4 once a file system has deleted many
    /// (the inode allocator skips recently freed inodes one by one); swapping reuses two.
    /// Where the exchange is not supported, it falls back to the temporary file and rename.
    package static func replaceContents(of path: String, with bytes: [UInt8], spare: String) throws(CairnError) {
        // Only a plain file is swapped: a symbolic link put there by hand is replaced by a file,
        // as a rename would, and never followed.
        guard let exchange = renameExchange, kind(path) == .file else { return try writeAtomically(bytes, to: path) }
        var fd = open(spare, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        if fd == -1, errno == ELOOP {
            unlink(spare)
            fd = open(spare, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        }
        if fd == -1 { throw failure("open", spare, errno: errno) }
        do throws(CairnError) {
            try writeAll(bytes, to: fd, path: spare)
            try check(ftruncate(fd, off_t(bytes.count)), "truncate", spare)
        } catch {
            close(fd)
            throw error
        }
        try check(close(fd), "close", spare)
        if exchange(AT_FDCWD, spare, AT_FDCWD, path, renameExchangeFlag) != 0 {
            let code = errno
            guard code == EINVAL || code == ENOSYS || code == EXDEV else { throw failure("rename", path, errno: code) }
            try writeAtomically(bytes, to: path)
        }
    }

    /// Flushes to disk what was written to the file system holding `path` (`syncfs`), or, where
    /// that call is missing, to every file system (`sync`). A failure of `syncfs` (the disk
    /// could not take what was written) is an error: what follows must not rely on it.
    package static func syncFileSystem(containing path: String) throws(CairnError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd != -1, let flush = syncfs else {
            if fd != -1 { close(fd) }
            Glibc.sync()
            return
        }
        defer { close(fd) }
        if flush(fd) != 0 { throw failure("syncfs", path, errno: errno) }
    }

    /// `syncfs`, which glibc has had since 2.14 but Swift's Glibc module does not show.
    private static let syncfs: (@convention(c) (Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()

    /// `renameat2`, which glibc has had since 2.28 but Swift's Glibc module does not show.
    private static let renameExchange: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
    }()

    /// RENAME_EXCHANGE from <linux/fs.h>.
    private static let renameExchangeFlag: UInt32 = 2

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(CairnError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written)
            }
            if count == -1 {
                if errno == EINTR { continue }
                throw failure("write", path, errno: errno)
            }
            written += count
        }
    }

    /// Appends lines to a text file, creating it if needed. When the file does not end in a
    /// newline (a write cut short), a newline goes first, so the new lines start clean.
    package static func appendLines(_ bytes: [UInt8], to path: String) throws(CairnError) {
        let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        if fd == -1 { throw failure("open", path, errno: errno) }
        defer { close(fd) }
        var info = stat()
        try check(fstat(fd, &info), "stat", path)
        var last: UInt8 = 0x0A
        if info.st_size > 0, pread(fd, &last, 1, info.st_size - 1) != 1 { last = 0 }
        try writeAll(last == 0x0A ? bytes : [0x0A] + bytes, to: fd, path: path)
    }

    /// The folder part of a path: `/a/b/c.json` → `/a/b`.
    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of a path: `/a/b/c.json` → `c.json`.
    package static func lastComponent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// Creates a folder and its missing parents. A failure names the folder and the system's
    /// reason, as every other failure here does.
    package static func makeFolders(_ path: String) throws(CairnError) {
        if kind(path) == .folder { return }
        let above = parent(of: path)
        if above != path, above != "/", above != "." { try makeFolders(above) }
        if mkdir(path, 0o755) == 0 || (errno == EEXIST && kind(path) == .folder) { return }
        throw failure("create folder", path, errno: errno)
    }

    /// The names in a folder, or [] when there is no folder.
    package static func names(in path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    package enum Kind { case file, folder, other }

    /// What is at `path` (without following a final symbolic link), or nil for nothing.
    package static func kind(_ path: String) -> Kind? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        default: return .other
        }
    }

    /// Removes a file; true when there was one.
    @discardableResult
    package static func removeFile(_ path: String) throws(CairnError) -> Bool {
        if unlink(path) == 0 { return true }
        if errno == ENOENT { return false }
        throw failure("remove", path, errno: errno)
    }

    /// Renames a file or a folder (`rename(2)`); refuses to replace anything at `target`.
    package static func move(_ path: String, to target: String) throws(CairnError) {
        guard kind(target) == nil else {
            throw CairnError(.alreadyExists, "cannot move \(path) to \(target): something is there already")
        }
        if rename(path, target) != 0 { throw failure("rename", path, errno: errno) }
    }

    /// Removes `path` if it is an empty folder.
    package static func removeFolderIfEmpty(_ path: String) {
        _ = rmdir(path)
    }

    /// Removes `path` if it is an empty folder, then its parents while they are empty,
    /// never going above `root`.
    package static func removeEmptyFolders(from path: String, upTo root: String) {
        var current = path
        while current.count > root.count, current.hasPrefix(root), rmdir(current) == 0 {
            current = parent(of: current)
        }
    }
}
