#if canImport(Glibc)
import Glibc
#endif

/// A file mapped read-only into memory (`mmap`), unmapped when the value goes away. Reading
/// a few entries of a large index touches only their pages.
final class MappedFile {
    let bytes: UnsafeRawBufferPointer

    /// Maps the file at `path`; nil when there is no such file.
    init?(path: String) throws(GitFormatError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd == -1 {
            if errno == ENOENT { return nil }
            throw posixFailure("open", path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw posixFailure("fstat", path) }
        let size = Int(info.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw posixFailure("mmap", path)
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        if let base = bytes.baseAddress {
            munmap(UnsafeMutableRawPointer(mutating: base), bytes.count)
        }
    }
}
