#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#else
#error("Cairn builds on Linux with glibc only: the store relies on renameat2 and syncfs")
#endif

/// The system calls Cairn makes itself, in this file (descriptors and paths) and its
/// extensions — `Syscalls+Sockets.swift` (connections and waits with a deadline),
/// `Syscalls+Spawn.swift` (pipes and processes), `Syscalls+Threads.swift` (the second thread
/// of ``inTwoThreads(_:)``), `Syscalls+FolderWatch.swift` (inotify) and
/// `Syscalls+Process.swift` (the process, the clocks, sleeping) — the only library files
/// besides Git's that import the platform's C library: Linux with glibc, the only platform
/// Cairn builds on.
///
/// One policy for a call that a signal interrupts (`EINTR`): it is made again
/// (``retryingOnInterrupt(_:)``, as swift-system's `valueOrErrno(retryOnInterrupt:)`), except
/// `close`, after which Linux has released the descriptor whatever it returns. Each call
/// returns its result or the ``Errno`` it failed with; CairnCore's `FileSystem` turns those into
/// store errors that name the file.
package enum Syscalls {
    /// The `errno` of a failed call.
    package struct Errno: Error, Hashable, CustomStringConvertible {
        package var code: Int32

        package init(_ code: Int32) {
            self.code = code
        }

        /// The calling thread's `errno` now.
        package static var current: Errno { Errno(errno) }

        /// The system's text for it (`strerror`).
        package var description: String { String(cString: strerror(code)) }

        /// As the error Foundation names it, for an error's cause.
        package var posixError: POSIXError? { POSIXErrorCode(rawValue: code).map { POSIXError($0) } }

        package static let interrupted = Errno(EINTR)
        package static let noSuchFile = Errno(ENOENT)
        package static let notAFolder = Errno(ENOTDIR)
        package static let exists = Errno(EEXIST)
        package static let symbolicLinkLoop = Errno(ELOOP)
        package static let wouldBlock = Errno(EWOULDBLOCK)
        package static let invalidArgument = Errno(EINVAL)
        package static let notImplemented = Errno(ENOSYS)
        package static let notPermitted = Errno(EPERM)
        package static let accessDenied = Errno(EACCES)
        package static let notSupported = Errno(EOPNOTSUPP)
        package static let crossDevice = Errno(EXDEV)
        package static let noSpace = Errno(ENOSPC)
        package static let quotaExceeded = Errno(EDQUOT)
        package static let ioError = Errno(EIO)
        package static let readOnlyFileSystem = Errno(EROFS)
        package static let inProgress = Errno(EINPROGRESS)
        package static let connectionReset = Errno(ECONNRESET)
        package static let brokenPipe = Errno(EPIPE)
    }

    /// How a file is opened (always close-on-exec, created with mode 0644).
    package enum OpenMode {
        /// Reading an existing file or folder.
        case reading
        /// Writing a file created, or cut to nothing first.
        case replacing
        /// Writing over a file in place, created if missing, never through a symbolic link.
        case overwritingNoFollow
        /// Writing a file created here, which must not exist (nor be a symbolic link).
        case creatingNew
        /// Reading and appending, created if missing.
        case appending
        /// Appending only, created if missing: a log written and never read through it.
        case appendingOnly
        /// Reading and writing in place, created if missing.
        case updating
        /// Holding a folder open to look up its entries; anything else is refused (`ENOTDIR`)
        /// without being opened.
        case folder

        var flags: Int32 {
            switch self {
            case .reading: O_RDONLY
            case .replacing: O_WRONLY | O_CREAT | O_TRUNC
            case .overwritingNoFollow: O_WRONLY | O_CREAT | O_NOFOLLOW
            case .creatingNew: O_WRONLY | O_CREAT | O_EXCL
            case .appending: O_RDWR | O_APPEND | O_CREAT
            case .appendingOnly: O_WRONLY | O_APPEND | O_CREAT
            case .updating: O_RDWR | O_CREAT
            case .folder: O_RDONLY | O_DIRECTORY
            }
        }
    }

    /// What `stat` says of a file.
    package struct FileStatus {
        package enum Kind { case file, folder, other }

        package var kind: Kind
        /// The permission bits (`st_mode & 07777`): 0o600 for a file only its owner reads and writes.
        package var permissions: UInt32
        package var size: Int
        package var device: UInt64
        package var owner: UInt32
        package var group: UInt32
        package var inode: UInt64
        package var modified: Time
        package var changed: Time

        // Inlined, so that a caller that reads one field (the kind, say) converts only that.
        @inline(__always)
        init(_ info: stat) {
            switch info.st_mode & S_IFMT {
            case S_IFREG: kind = .file
            case S_IFDIR: kind = .folder
            default: kind = .other
            }
            permissions = UInt32(info.st_mode & 0o7777)
            size = Int(info.st_size)
            device = UInt64(info.st_dev)
            owner = UInt32(info.st_uid)
            group = UInt32(info.st_gid)
            inode = UInt64(info.st_ino)
            modified = Time(info.st_mtim)
            changed = Time(info.st_ctim)
        }
    }

    /// A time of the system's realtime clock, to the nanosecond.
    package struct Time: Hashable {
        package var seconds: Int
        package var nanoseconds: Int

        @inline(__always)
        init(_ time: timespec) {
            seconds = time.tv_sec
            nanoseconds = time.tv_nsec
        }
    }

    /// Calls `body` until it does not fail with `EINTR`: its result, or the `errno` it failed
    /// with (a result of -1).
    @inline(__always)
    package static func retryingOnInterrupt<I: FixedWidthInteger>(_ body: () -> I) -> Result<I, Errno> {
        while true {
            let result = body()
            if result != -1 { return .success(result) }
            let error = Errno.current
            if error != .interrupted { return .failure(error) }
        }
    }

    /// `result`, or the `errno` it failed with (a result of -1), for a call made once.
    @inline(__always)
    package static func valueOrErrno<I: FixedWidthInteger>(_ result: I) -> Result<I, Errno> {
        result == -1 ? .failure(.current) : .success(result)
    }

    // MARK: Descriptors

    /// Opens `path`; a file it creates gets `permissions` (less the process's umask).
    package static func open(_ path: String, _ mode: OpenMode, permissions: mode_t = 0o644) -> Result<Int32, Errno> {
        retryingOnInterrupt { Glibc.open(path, mode.flags | O_CLOEXEC, permissions) }
    }

    package static func close(_ descriptor: Int32) -> Result<Void, Errno> {
        valueOrErrno(Glibc.close(descriptor)).map { _ in }
    }

    /// Reads into `buffer` what is there, up to its size; 0 at the end of the file.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        retryingOnInterrupt { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// Reads into `buffer` from `offset` of the file, without moving the file's position.
    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Result<Int, Errno> {
        retryingOnInterrupt { pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Writes what the file takes of `buffer` (all of it, for a file on a local disk).
    package static func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        retryingOnInterrupt { Glibc.write(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// Writes `buffer` at `offset` of the file, without moving the file's position.
    package static func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer, at offset: Int) -> Result<Int, Errno> {
        retryingOnInterrupt { pwrite(descriptor, buffer.baseAddress, buffer.count, off_t(offset)) }
    }

    /// Writes the whole of `buffer`, in as many writes as the file takes.
    package static func writeAll(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) -> Result<Void, Errno> {
        var written = 0
        while written < buffer.count {
            switch write(descriptor, from: UnsafeRawBufferPointer(rebasing: buffer[written...])) {
            case .success(let count): written += count
            case .failure(let error): return .failure(error)
            }
        }
        return .success(())
    }

    /// Reads to the end of the file, or until more than `limit` bytes came (then those bytes,
    /// one chunk past the limit at most, so that the caller can tell), in chunks of `chunk`.
    package static func readToEnd(_ descriptor: Int32, limit: Int = .max, chunk: Int = 65_536) -> Result<[UInt8], Errno> {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: chunk)
        while bytes.count <= limit {
            switch buffer.withUnsafeMutableBytes({ read(descriptor, into: $0) }) {
            case .success(0): return .success(bytes)
            case .success(let count): bytes += buffer[..<count]
            case .failure(let error): return .failure(error)
            }
        }
        return .success(bytes)
    }

    /// Maps the first `size` bytes of the open file into memory, read-only and private
    /// (`mmap`): reading them touches only the pages read. ``unmap(_:)`` releases them; the
    /// descriptor may be closed meanwhile.
    package static func mapReadOnly(_ descriptor: Int32, size: Int) -> Result<UnsafeRawBufferPointer, Errno> {
        guard size > 0 else { return .success(UnsafeRawBufferPointer(start: nil, count: 0)) }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            return .failure(.current)
        }
        return .success(UnsafeRawBufferPointer(start: address, count: size))
    }

    /// Releases bytes ``mapReadOnly(_:size:)`` mapped.
    package static func unmap(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
    }

    /// Gives the open file the permission bits `mode` (`fchmod`).
    package static func setMode(of descriptor: Int32, to mode: UInt32) -> Result<Void, Errno> {
        retryingOnInterrupt { fchmod(descriptor, mode_t(mode)) }.map { _ in }
    }

    package static func truncate(_ descriptor: Int32, to size: Int) -> Result<Void, Errno> {
        retryingOnInterrupt { ftruncate(descriptor, off_t(size)) }.map { _ in }
    }

    /// Flushes the file's data and metadata to the disk.
    package static func fsync(_ descriptor: Int32) -> Result<Void, Errno> {
        retryingOnInterrupt { Glibc.fsync(descriptor) }.map { _ in }
    }

    package static func status(of descriptor: Int32) -> Result<FileStatus, Errno> {
        var info = stat()
        return retryingOnInterrupt { fstat(descriptor, &info) }.map { _ in FileStatus(info) }
    }

    /// Takes the exclusive `flock` of the file without waiting: false when another holds it.
    package static func tryLock(_ descriptor: Int32) -> Result<Bool, Errno> {
        switch retryingOnInterrupt({ flock(descriptor, LOCK_EX | LOCK_NB) }) {
        case .success: .success(true)
        case .failure(let error): error == .wouldBlock ? .success(false) : .failure(error)
        }
    }

    /// Takes the shared `flock` of the file without waiting: false while another holds it
    /// exclusively.
    package static func tryLockShared(_ descriptor: Int32) -> Result<Bool, Errno> {
        switch retryingOnInterrupt({ flock(descriptor, LOCK_SH | LOCK_NB) }) {
        case .success: .success(true)
        case .failure(let error): error == .wouldBlock ? .success(false) : .failure(error)
        }
    }

    package static func unlock(_ descriptor: Int32) {
        _ = retryingOnInterrupt { flock(descriptor, LOCK_UN) }
    }

    /// Flushes to disk what was written to the file system that holds the open file
    /// (`syncfs`); nil where the call is missing.
    package static func syncFileSystem(of descriptor: Int32) -> Result<Void, Errno>? {
        guard let syncfs = syncfsCall else { return nil }
        return retryingOnInterrupt { syncfs(descriptor) }.map { _ in }
    }

    /// Flushes to disk what was written to every file system (`sync`).
    package static func syncEverything() {
        Glibc.sync()
    }

    // MARK: Paths

    /// What is at `path`; with `followingLinks: false`, a final symbolic link itself.
    package static func status(of path: String, followingLinks: Bool) -> Result<FileStatus, Errno> {
        var info = stat()
        return retryingOnInterrupt { followingLinks ? stat(path, &info) : lstat(path, &info) }.map { _ in FileStatus(info) }
    }

    /// What `lstat` says of the entry `name` of the open folder `folder` (`fstatat`): the
    /// entry of that folder, wherever its path leads now.
    package static func status(of name: String, in folder: Int32) -> Result<FileStatus, Errno> {
        var info = stat()
        return retryingOnInterrupt { fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) }.map { _ in FileStatus(info) }
    }

    /// The entries of a folder, `.` and `..` and names that are not UTF-8 left out, each with
    /// its kind as the listing gives it (`d_type`), without a `stat` each; nil where the file
    /// system does not say. Without `followingLink`, a symbolic link at `path` (its last
    /// component) is not listed through (`ELOOP`).
    package static func entries(of path: String, followingLink: Bool) -> Result<[(name: String, kind: FileStatus.Kind?)], Errno> {
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | (followingLink ? 0 : O_NOFOLLOW)
        let fd: Int32
        switch retryingOnInterrupt({ Glibc.open(path, flags) }) {
        case .success(let opened): fd = opened
        case .failure(let error): return .failure(error)
        }
        guard let folder = fdopendir(fd) else {
            let error = Errno.current
            _ = Glibc.close(fd)
            return .failure(error)
        }
        defer { closedir(folder) }
        var entries: [(name: String, kind: FileStatus.Kind?)] = []
        while true {
            errno = 0
            guard let entry = readdir(folder) else {
                let error = Errno.current
                return error.code == 0 ? .success(entries) : .failure(error)
            }
            // A name that is not UTF-8 is left out: no path Cairn reads or writes has one.
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(validating: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let name, name != ".", name != ".." else { continue }
            let kind: FileStatus.Kind? =
                switch Int32(entry.pointee.d_type) {
                case Int32(DT_REG): .file
                case Int32(DT_DIR): .folder
                case Int32(DT_UNKNOWN): nil
                default: .other
                }
            entries.append((name, kind))
        }
    }

    package static func rename(_ path: String, to target: String) -> Result<Void, Errno> {
        retryingOnInterrupt { Glibc.rename(path, target) }.map { _ in }
    }

    /// Whether ``exchange(_:_:)`` can be called: glibc has had `renameat2` since 2.28.
    package static var canExchange: Bool { renameat2Call != nil }

    /// Swaps the names of two files in one step (`renameat2(RENAME_EXCHANGE)`). Fails with
    /// `EINVAL`, `ENOSYS` or `EXDEV` where the file system does not support it.
    package static func exchange(_ path: String, _ other: String) -> Result<Void, Errno> {
        guard let renameat2 = renameat2Call else { return .failure(.notImplemented) }
        return retryingOnInterrupt { renameat2(AT_FDCWD, path, AT_FDCWD, other, renameExchange) }.map { _ in }
    }

    /// Renames `path` to `target` unless `target` exists (`renameat2(RENAME_NOREPLACE)`):
    /// fails with `EEXIST` then, and with `EINVAL` or `ENOSYS` where the file system does not
    /// support it.
    package static func renameNoReplace(_ path: String, to target: String) -> Result<Void, Errno> {
        guard let renameat2 = renameat2Call else { return .failure(.notImplemented) }
        return retryingOnInterrupt { renameat2(AT_FDCWD, path, AT_FDCWD, target, renameNoReplaceFlag) }.map { _ in }
    }

    /// Gives the file `path` a second name, `target` (`link`): fails with `EEXIST` when
    /// `target` exists, whatever made it.
    package static func link(_ path: String, to target: String) -> Result<Void, Errno> {
        retryingOnInterrupt { Glibc.link(path, target) }.map { _ in }
    }

    package static func unlink(_ path: String) -> Result<Void, Errno> {
        retryingOnInterrupt { Glibc.unlink(path) }.map { _ in }
    }

    /// Creates the folder `path`, its mode `permissions` less the process's umask.
    package static func makeFolder(_ path: String, permissions: UInt32 = 0o755) -> Result<Void, Errno> {
        retryingOnInterrupt { mkdir(path, mode_t(permissions)) }.map { _ in }
    }

    /// Whether anything is at `path` (`access(F_OK)`, a final symbolic link followed).
    package static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The paths `pattern` names (`glob(3)`: `*`, `?`, `[…]`), sorted; none when nothing
    /// matches or the pattern cannot be read.
    package static func paths(matching pattern: String) -> [String] {
        var found = glob_t()
        defer { globfree(&found) }
        guard glob(pattern, 0, nil, &found) == 0 else { return [] }
        return (0..<Int(found.gl_pathc)).compactMap { found.gl_pathv[$0].map { String(cString: $0) } }
    }

    /// Creates and opens a new file of a name no other has, from `template` ending in
    /// `XXXXXX` (`mkstemp`), readable and writable only by its owner: its descriptor, which
    /// closes on exec, and its path.
    package static func makeUniqueFile(_ template: String) -> Result<(descriptor: Int32, path: String), Errno> {
        var bytes = Array(template.utf8CString)
        let descriptor = bytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor != -1 else { return .failure(.current) }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return .success((descriptor, String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
    }

    /// Creates a new folder of a name no other has, from `template` ending in `XXXXXX`
    /// (`mkdtemp`), readable only by its owner; its path.
    package static func makeUniqueFolder(_ template: String) -> Result<String, Errno> {
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard let made else { return .failure(.current) }
        return .success(String(cString: made))
    }

    /// Removes `path` if it is an empty folder.
    package static func removeFolder(_ path: String) -> Result<Void, Errno> {
        retryingOnInterrupt { rmdir(path) }.map { _ in }
    }

    package static func setMode(of path: String, to mode: UInt32) -> Result<Void, Errno> {
        retryingOnInterrupt { chmod(path, mode_t(mode)) }.map { _ in }
    }

    /// Whether `path` is a file (or a link to one) this process may run (`access(X_OK)`).
    package static func isExecutableFile(_ path: String) -> Bool {
        guard case .success(let status) = status(of: path, followingLinks: true), status.kind == .file else { return false }
        return access(path, X_OK) == 0
    }

    // MARK: Calls glibc has that Swift's Glibc module does not show

    /// `syncfs`, in glibc since 2.14.
    private static let syncfsCall: (@convention(c) (Int32) -> Int32)? = {
        guard let symbol = dlsym(nil, "syncfs") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32) -> Int32).self)
    }()

    /// `renameat2`, in glibc since 2.28.
    private static let renameat2Call: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32)? = {
        guard let symbol = dlsym(nil, "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32).self)
    }()

    /// RENAME_EXCHANGE from <linux/fs.h>.
    private static let renameExchange: UInt32 = 2
    private static let renameNoReplaceFlag: UInt32 = 1
}
