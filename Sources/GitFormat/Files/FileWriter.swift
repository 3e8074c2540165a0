import CairnSystem

#if canImport(Glibc)
import Glibc
#endif

/// The files Cairn writes into `.git` itself (index files, loose objects): POSIX writes,
/// each failure a ``GitFormatError`` naming the file.
enum FileWriter {
    /// Writes all of `bytes` to an open file.
    static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(GitFormatError) {
        if case .failure(let error) = bytes.withUnsafeBytes({ Syscalls.writeAll(fd, from: $0) }) {
            throw posixFailure("write", path, error)
        }
    }

    /// Writes `bytes` to `path` through `path.lock` (created exclusively, as git does, so a
    /// git command writing at the same time fails instead of interleaving), fsynced, then
    /// renamed into place; the folder is fsynced so the rename survives a crash.
    static func replace(_ path: String, with bytes: [UInt8], what: String) throws(GitFormatError) {
        let lock = path + ".lock"
        let fd = try createLock(lock, for: what)
        try finish(fd, writing: bytes, temporary: lock, into: path)
    }

    /// Creates the lock file `lock` of `what` (`the index`, `refs/heads/main`) exclusively,
    /// open for writing, as git does: `.locked` when it exists, so that a git command writing
    /// the same file fails instead of interleaving. Its mode is 0666 less the umask, as git's.
    static func createLock(_ lock: String, for what: String) throws(GitFormatError) -> Int32 {
        let fd = open(lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        if fd == -1 {
            if errno == EEXIST {
                throw failure(.locked, "\(lock) exists: another git process is writing \(what)", "open", path: lock)
            }
            throw posixFailure("open", lock)
        }
        return fd
    }

    /// Writes `bytes` to the open temporary file `fd`, fsyncs and closes it, and renames it
    /// to `path` (then fsyncs the folder, unless the caller will); on failure the temporary
    /// file is removed.
    static func finish(
        _ fd: Int32, writing bytes: [UInt8], temporary: String, into path: String,
        mode: mode_t? = nil, syncFolder shouldSyncFolder: Bool = true
    ) throws(GitFormatError) {
        do throws(GitFormatError) {
            try writeAll(bytes, to: fd, path: temporary)
            guard fsync(fd) == 0 else { throw posixFailure("fsync", temporary) }
            if let mode, fchmod(fd, mode) != 0 { throw posixFailure("chmod", temporary) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let error = posixFailure("rename", temporary)
            unlink(temporary)
            throw error
        }
        if shouldSyncFolder { try syncFolder(of: path) }
    }

    /// fsyncs the folder holding `path`, so a rename in it is durable. A failure is an error:
    /// what was renamed there may not survive a power cut, so nothing may refer to it yet.
    static func syncFolder(of path: String) throws(GitFormatError) {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let name = folder.isEmpty ? "/" : folder
        let fd = open(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd != -1 else { throw posixFailure("open", name) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw posixFailure("fsync", name) }
    }
}
