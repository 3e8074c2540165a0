import CairnSystem

#if canImport(Glibc)
import Glibc
#endif

/// The few file operations SSH settings need: reading a small file, and the files a glob names.
enum SSHFiles {
    /// The bytes of the file at `path` (at most 1 MiB: configurations and keys are small);
    /// nil when it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        guard case .success(let bytes) = Syscalls.readToEnd(fd, limit: 1 << 20, chunk: 16_384), bytes.count <= 1 << 20 else {
            return nil
        }
        return bytes
    }

    /// The text of the file at `path`; nil when it cannot be read.
    static func text(_ path: String) -> String? {
        read(path).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether something exists at `path`.
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// The paths `pattern` names (`glob(3)`), sorted; none when nothing matches.
    static func glob(_ pattern: String) -> [String] {
        var found = glob_t()
        defer { globfree(&found) }
        guard Glibc.glob(pattern, 0, nil, &found) == 0 else { return [] }
        return (0..<Int(found.gl_pathc)).compactMap { found.gl_pathv[$0].map { String(cString: $0) } }
    }
}
