import CairnSystem

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
        switch Syscalls.open(lock, .creatingNew, permissions: 0o666) {
        case .success(let fd):
            return fd
        case .failure(.exists):
            throw failure(.locked, "\(lock) exists: another git process is writing \(what)", "open", path: lock)
        case .failure(let error):
            throw posixFailure("open", lock, error)
        }
    }

    /// Writes `bytes` to the open temporary file `fd`, fsyncs and closes it, and renames it
    /// to `path` (then fsyncs the folder, unless the caller will); on failure the temporary
    /// file is removed.
    static func finish(
        _ fd: Int32, writing bytes: [UInt8], temporary: String, into path: String,
        mode: UInt32? = nil, syncFolder shouldSyncFolder: Bool = true
    ) throws(GitFormatError) {
        do throws(GitFormatError) {
            try writeAll(bytes, to: fd, path: temporary)
            if case .failure(let error) = Syscalls.fsync(fd) { throw posixFailure("fsync", temporary, error) }
            if let mode, case .failure(let error) = Syscalls.setMode(of: fd, to: mode) {
                throw posixFailure("chmod", temporary, error)
            }
        } catch {
            _ = Syscalls.close(fd)
            _ = Syscalls.unlink(temporary)
            throw error
        }
        _ = Syscalls.close(fd)
        if case .failure(let error) = Syscalls.rename(temporary, to: path) {
            _ = Syscalls.unlink(temporary)
            throw posixFailure("rename", temporary, error)
        }
        if shouldSyncFolder { try syncFolder(of: path) }
    }

    /// fsyncs the folder holding `path`, so a rename in it is durable. A failure is an error:
    /// what was renamed there may not survive a power cut, so nothing may refer to it yet.
    static func syncFolder(of path: String) throws(GitFormatError) {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let name = folder.isEmpty ? "/" : folder
        let fd: Int32
        switch Syscalls.open(name, .folder) {
        case .success(let opened): fd = opened
        case .failure(let error): throw posixFailure("open", name, error)
        }
        defer { _ = Syscalls.close(fd) }
        if case .failure(let error) = Syscalls.fsync(fd) { throw posixFailure("fsync", name, error) }
    }
}
