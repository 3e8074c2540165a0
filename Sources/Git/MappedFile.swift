#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file mapped read-only into memory (`mmap`), unmapped when the value goes away. Reading
/// a few entries of a large index touches only their pages.
final class MappedFile {
    let bytes: UnsafeRawBufferPointer

    /// Maps the file at `path`; nil when there is no such file.
    init?(path: String) throws(GitError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd == -1 {
            if errno == ENOENT { return nil }
            throw MappedFile.failure("open", path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw MappedFile.failure("fstat", path) }
        let size = Int(info.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw MappedFile.failure("mmap", path)
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        if let base = bytes.baseAddress {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        }
    }

    static func failure(_ call: String, _ path: String) -> GitError {
        let code = errno
        return Git.failure(.generic, "\(call) \(path): \(String(cString: strerror(code)))", call)
    }
}

/// POSIX file writes for the index files, each failure a ``GitError`` naming the file.
enum IndexFileWriter {
    /// Writes `bytes` to `path` through `path.lock` (created exclusively, as git does, so a
    /// git command writing at the same time fails instead of interleaving), fsynced, then
    /// renamed into place; the folder is fsynced so the rename survives a crash.
    static func replace(_ path: String, with bytes: [UInt8]) throws(GitError) {
        let lock = path + ".lock"
        let fd = open(lock, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd == -1 {
            if errno == EEXIST {
                throw failure(.locked, "\(lock) exists: another git process is writing the index", "open")
            }
            throw MappedFile.failure("open", lock)
        }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if count == -1 {
                if errno == EINTR { continue }
                let error = MappedFile.failure("write", lock)
                close(fd)
                unlink(lock)
                throw error
            }
            written += count
        }
        if fsync(fd) != 0 {
            let error = MappedFile.failure("fsync", lock)
            close(fd)
            unlink(lock)
            throw error
        }
        close(fd)
        if rename(lock, path) != 0 {
            let error = MappedFile.failure("rename", lock)
            unlink(lock)
            throw error
        }
        syncFolder(of: path)
    }

    /// fsyncs the folder holding `path`, so a rename in it is durable.
    static func syncFolder(of path: String) {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let fd = open(folder.isEmpty ? "/" : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd != -1 else { return }
        fsync(fd)
        close(fd)
    }
}
