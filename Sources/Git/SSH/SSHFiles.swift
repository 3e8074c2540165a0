import CairnSystem

/// The few file operations SSH settings need: reading a small file, and the files a glob names.
enum SSHFiles {
    /// The bytes of the file at `path` (at most 1 MiB: configurations and keys are small);
    /// nil when it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        guard case .success(let fd) = Syscalls.open(path, .reading) else { return nil }
        defer { _ = Syscalls.close(fd) }
        guard case .success(let status) = Syscalls.status(of: fd), status.kind == .file else { return nil }
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
        Syscalls.exists(path)
    }

    /// The paths `pattern` names (`glob(3)`), sorted; none when nothing matches.
    static func glob(_ pattern: String) -> [String] {
        Syscalls.paths(matching: pattern)
    }
}
