import CairnSystem

/// A file mapped read-only into memory (`mmap`), unmapped when the value goes away. Reading
/// a few entries of a large index touches only their pages.
final class MappedFile {
    let bytes: UnsafeRawBufferPointer

    /// Maps the file at `path`; nil when there is no such file.
    init?(path: String) throws(GitFormatError) {
        let fd: Int32
        switch Syscalls.open(path, .reading) {
        case .success(let opened): fd = opened
        case .failure(.noSuchFile): return nil
        case .failure(let error): throw posixFailure("open", path, error)
        }
        defer { _ = Syscalls.close(fd) }
        let size: Int
        switch Syscalls.status(of: fd) {
        case .success(let status): size = status.size
        case .failure(let error): throw posixFailure("fstat", path, error)
        }
        switch Syscalls.mapReadOnly(fd, size: size) {
        case .success(let mapped): bytes = mapped
        case .failure(let error): throw posixFailure("mmap", path, error)
        }
    }

    deinit {
        Syscalls.unmap(bytes)
    }
}
