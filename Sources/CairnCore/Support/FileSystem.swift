import CairnMerge
import CairnSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The few file operations the store needs, on POSIX calls, each failure a ``CairnError``
/// that names the file and the system's reason.
package enum FileSystem {
    /// Turns a failed call into a store error that names the call and the file.
    package static func check<T>(
        _ result: Result<T, Syscalls.Errno>, _ call: String, _ path: String,
        function: String = #function, file: String = #fileID, line: Int = #line
    ) throws(CairnError) -> T {
        switch result {
        case .success(let value): return value
        case .failure(let error): throw failure(call, path, errno: error.code, function: function, file: file, line: line)
        }
    }

    package static func failure(
        _ call: String, _ path: String, errno code: Int32,
        function: String = #function, file: String = #fileID, line: Int = #line
    ) -> CairnError {
        let reason = Syscalls.Errno(code).description
        return CairnError(
            .io, "\(call) \(path): \(reason)\(hint(errno: code))", cause: Syscalls.Errno(code).posixError,
            function: function, file: file, line: line)
    }

    /// Whether `code` is the failure of a disk: full (`ENOSPC`, `EDQUOT`), failing (`EIO`) or
    /// read-only (`EROFS`).
    package static func isDiskFailure(_ code: Int32) -> Bool {
        [Syscalls.Errno.noSpace, .quotaExceeded, .ioError, .readOnlyFileSystem].contains { $0.code == code }
    }

    /// What to do about a failure of the file system, for the errors a user can act on: a
    /// full disk, a failing one, a read-only one. Empty for the others.
    package static func hint(errno code: Int32) -> String {
        switch Syscalls.Errno(code) {
        case .noSpace, .quotaExceeded: " (the disk is full; free some space and try again)"
        case .ioError: " (the disk reported an I/O error; check it, then try again)"
        case .readOnlyFileSystem: " (the file system is read-only; make it writable and try again)"
        default: ""
        }
    }

    /// The content of a file (the size `fstat` gave when it was opened, or to its end when
    /// that says 0), or nil when there is no file at `path`. `accept` sees what
    /// `stat` says of the file opened, before it is read, and may refuse it (a key file that
    /// others can read): the file checked is the file read, whatever renames happen meanwhile.
    package static func read(
        _ path: String, checking accept: (Syscalls.FileStatus) throws(CairnError) -> Void = { _ in }
    ) throws(CairnError) -> [UInt8]? {
        let fd: Int32
        switch Syscalls.open(path, .reading) {
        case .success(let opened): fd = opened
        case .failure(let error):
            if error == .noSuchFile || error == .notAFolder { return nil }
            throw failure("open", path, errno: error.code)
        }
        defer { _ = Syscalls.close(fd) }
        let status = try check(Syscalls.status(of: fd), "stat", path)
        try accept(status)
        if status.kind == .folder { return nil }
        var bytes = [UInt8](repeating: 0, count: status.size)
        var filled = 0
        while true {
            if filled == bytes.count {
                // The size `stat` gave, read: the file as it was then. A file that says it is
                // empty (as some of the kernel's do) is read to its end.
                if filled > 0, filled == status.size { break }
                bytes.append(contentsOf: repeatElement(0, count: 4096))
            }
            let count = try check(
                bytes.withUnsafeMutableBytes { buffer in
                    Syscalls.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }, "read", path)
            if count == 0 { break }
            filled += count
        }
        bytes.removeSubrange(filled...)
        return bytes
    }

    /// Replaces the file at `path` with `bytes` atomically: a temporary file beside it is
    /// written and renamed over it, so a reader or a crash sees the old content or the new,
    /// never a mix. With `durable`, the data is fsynced before the rename. The new file has
    /// `permissions` (less the umask): 0600 for a file no one else may read.
    package static func writeAtomically(_ bytes: [UInt8], to path: String, durable: Bool = false, permissions: UInt32 = 0o644)
        throws(CairnError)
    {
        let temporary = parent(of: path) + "/\(StoreLayout.temporaryFilePrefix)\(Syscalls.processID)-" + lastComponent(of: path)
        _ = Syscalls.unlink(temporary)
        let fd = try check(Syscalls.open(temporary, .replacing, permissions: permissions), "create", temporary)
        var isOpen = true
        do throws(CairnError) {
            try writeAll(bytes, to: fd, path: path)
            if durable { try check(Syscalls.fsync(fd), "fsync", path) }
            isOpen = false
            try check(Syscalls.close(fd), "close", path)
            try check(Syscalls.rename(temporary, to: path), "rename", path)
        } catch {
            if isOpen { _ = Syscalls.close(fd) }
            _ = Syscalls.unlink(temporary)
            throw error
        }
    }

    /// Writes `bytes` as the new file `path`, whole or not at all, and never over a file: one
    /// that appears at `path` while the bytes are written is left as it is, and the write
    /// fails with ``CairnError/Code/alreadyExists``. The bytes go to a temporary file created
    /// exclusively, which is then linked to `path` (`link`, which refuses a taken name), or,
    /// on a file system without hard links, renamed to it with `RENAME_NOREPLACE`.
    package static func writeNew(_ bytes: [UInt8], to path: String) throws(CairnError) {
        let temporary = parent(of: path) + "/\(StoreLayout.temporaryFilePrefix)\(Syscalls.processID)-" + lastComponent(of: path)
        // A run killed before it removed its temporary file left that name behind.
        _ = Syscalls.unlink(temporary)
        defer { _ = Syscalls.unlink(temporary) }
        try write(bytes, to: temporary, mode: .creatingNew)
        var (call, outcome) = ("link", Syscalls.link(temporary, to: path))
        if case .failure(let error) = outcome, Self.hasNoHardLinks(error) {
            (call, outcome) = ("rename", Syscalls.renameNoReplace(temporary, to: path))
        }
        switch outcome {
        case .success:
            return
        case .failure(.exists):
            throw taken(path)
        case .failure(let error):
            throw failure(call, path, errno: error.code)
        }
    }

    /// The refusal of a new file whose name is taken (``writeNew(_:to:)``, and a command's
    /// check before its work).
    package static func taken(_ path: String) -> CairnError {
        CairnError(.alreadyExists, "\(path) exists; give a new file (nothing was written)")
    }

    /// Whether `link` failed because the file system has no hard links (FAT, exFAT, some
    /// network file systems).
    private static func hasNoHardLinks(_ error: Syscalls.Errno) -> Bool {
        [.notPermitted, .notSupported, .notImplemented].contains(error)
    }

    /// Writes `bytes` to `path` in place (created, or cut to nothing first; with `mode`
    /// `.creatingNew`, created or refused): for files nothing reads until the write is over.
    package static func write(_ bytes: [UInt8], to path: String, mode: Syscalls.OpenMode = .replacing) throws(CairnError) {
        let fd = try check(Syscalls.open(path, mode), "create", path)
        do throws(CairnError) {
            try writeAll(bytes, to: fd, path: path)
        } catch {
            _ = Syscalls.close(fd)
            throw error
        }
        try check(Syscalls.close(fd), "close", path)
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
    /// `readable` says the caller has just read `path` as a file (then it is not looked at
    /// again): it is a file or a symbolic link to one, either of which is swapped out whole.
    package static func replaceContents(
        of path: String, with bytes: [UInt8], spare: String,
        readable: Bool = false
    ) throws(CairnError) {
        // Only a file is swapped: a symbolic link put there by hand is replaced by a file, as a
        // rename would, and never followed (the spare then holds the link, and is made anew).
        guard Syscalls.canExchange, readable || kind(path) == .file else { return try writeAtomically(bytes, to: path) }
        var opened = Syscalls.open(spare, .overwritingNoFollow)
        if case .failure(.symbolicLinkLoop) = opened {
            _ = Syscalls.unlink(spare)
            opened = Syscalls.open(spare, .overwritingNoFollow)
        }
        let fd = try check(opened, "open", spare)
        do throws(CairnError) {
            // Truncating costs an update of the file's inode even when its size stays; the
            // spare is cut only when it held more than is written.
            let held = try check(Syscalls.status(of: fd), "stat", spare).size
            try writeAll(bytes, to: fd, path: spare)
            if held > bytes.count {
                try check(Syscalls.truncate(fd, to: bytes.count), "truncate", spare)
            }
        } catch {
            _ = Syscalls.close(fd)
            throw error
        }
        try check(Syscalls.close(fd), "close", spare)
        if case .failure(let error) = Syscalls.exchange(spare, path) {
            guard error == .invalidArgument || error == .notImplemented || error == .crossDevice else {
                throw failure("rename", path, errno: error.code)
            }
            try writeAtomically(bytes, to: path)
        }
    }

    /// Flushes to disk what was written to the file system holding `path` (`syncfs`), or, where
    /// that call is missing, to every file system (`sync`). A failure of `syncfs` (the disk
    /// could not take what was written) is an error: what follows must not rely on it.
    package static func syncFileSystem(containing path: String) throws(CairnError) {
        guard case .success(let fd) = Syscalls.open(path, .reading) else {
            Syscalls.syncEverything()
            return
        }
        defer { _ = Syscalls.close(fd) }
        guard let synced = Syscalls.syncFileSystem(of: fd) else {
            Syscalls.syncEverything()
            return
        }
        try check(synced, "syncfs", path)
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(CairnError) {
        try check(bytes.withUnsafeBytes { Syscalls.writeAll(fd, from: $0) }, "write", path)
    }

    /// Appends bytes to a file, creating it if needed, without reading how it ends.
    package static func append(_ bytes: [UInt8], to path: String) throws(CairnError) {
        try appending(to: path) { fd throws(CairnError) in try writeAll(bytes, to: fd, path: path) }
    }

    /// Appends lines to a text file, creating it if needed. When the file does not end in a
    /// newline (a write cut short), a newline goes first, so the new lines start clean.
    package static func appendLines(_ bytes: [UInt8], to path: String) throws(CairnError) {
        try appending(to: path) { fd throws(CairnError) in try appendLines(bytes, to: fd, path: path) }
    }

    private static func appending(to path: String, _ body: (Int32) throws(CairnError) -> Void) throws(CairnError) {
        let fd = try check(Syscalls.open(path, .appending), "open", path)
        defer { _ = Syscalls.close(fd) }
        try body(fd)
    }

    private static func appendLines(_ bytes: [UInt8], to fd: Int32, path: String) throws(CairnError) {
        let size = try check(Syscalls.status(of: fd), "stat", path).size
        var last: UInt8 = 0x0A
        if size > 0 {
            let read = withUnsafeMutableBytes(of: &last) { Syscalls.read(fd, into: $0, at: size - 1) }
            if case .success(1) = read {} else { last = 0 }
        }
        try writeAll(last == 0x0A ? bytes : [0x0A] + bytes, to: fd, path: path)
    }

    /// The folder part of a path: `/a/b/c.json` → `/a/b`.
    /// `path` made absolute against the current folder (as it is; `..` are not resolved).
    package static func absolutePath(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of a path: `/a/b/c.json` → `c.json`.
    package static func lastComponent(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// A new folder in the system's temporary folder (`$TMPDIR`, else `/tmp`), named
    /// `<prefix>-` and six random characters.
    package static func makeTemporaryFolder(prefix: String) throws(CairnError) -> String {
        let template = FileManager.default.temporaryDirectory.path + "/" + prefix + "-XXXXXX"
        return try check(Syscalls.makeUniqueFolder(template), "mkdtemp", template)
    }

    /// Creates a folder and its missing parents. A failure names the folder and the system's
    /// reason, as every other failure here does.
    package static func makeFolders(_ path: String) throws(CairnError) {
        if kind(path) == .folder { return }
        let above = parent(of: path)
        if above != path, above != "/", above != "." { try makeFolders(above) }
        switch Syscalls.makeFolder(path) {
        case .success: return
        case .failure(let error):
            if error == .exists && kind(path) == .folder { return }
            throw failure("create folder", path, errno: error.code)
        }
    }

    /// The names in a folder, or [] when there is no folder.
    package static func names(in path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }

    /// The names in a folder with what each is (a symbolic link is `.other`, not followed),
    /// [] when there is no folder or it cannot be read — nor, without `followingLink`, when
    /// `path` itself is a symbolic link (the folders above it are the caller's to trust): a
    /// walk that lists only what an earlier listing called a folder never leaves the tree it
    /// started in. Names that are not UTF-8 are left out. One listing, with a `stat` only for
    /// an entry whose kind the file system's listing leaves out.
    package static func entries(in path: String, followingLink: Bool = false) -> [(name: String, kind: Kind)] {
        guard case .success(let entries) = Syscalls.entries(of: path, followingLink: followingLink) else { return [] }
        return entries.compactMap { entry in
            guard let kind = entry.kind ?? kind(path + "/" + entry.name) else { return nil }
            return (entry.name, kind)
        }
    }

    /// Every file and folder below `path`, as paths relative to it (`users/u1/books/b1.json`),
    /// folders before what they hold, each folder's names sorted, without following symbolic
    /// links; an entry named in `skipping`, at any depth, is left out with all it holds. []
    /// when there is no folder.
    package static func paths(under path: String, skipping: Set<String> = []) -> [String] {
        var paths: [String] = []
        func walk(_ relative: String) {
            for name in names(in: relative.isEmpty ? path : path + "/" + relative).sorted() where !skipping.contains(name) {
                let entry = relative.isEmpty ? name : relative + "/" + name
                paths.append(entry)
                if kind(path + "/" + entry) == .folder { walk(entry) }
            }
        }
        walk("")
        return paths
    }

    package typealias Kind = Syscalls.FileStatus.Kind

    /// What is at `path` (without following a final symbolic link), or nil for nothing.
    package static func kind(_ path: String) -> Kind? {
        guard case .success(let status) = Syscalls.status(of: path, followingLinks: false) else { return nil }
        return status.kind
    }

    /// What is at `path`, as ``kind(_:)``; nil only when nothing is there (or a file stands
    /// where a folder of the path should be). A path that cannot be looked at (a folder on it
    /// that may be read but not entered, an I/O error) is thrown, not taken for nothing.
    package static func existingKind(_ path: String) throws(CairnError) -> Kind? {
        switch Syscalls.status(of: path, followingLinks: false) {
        case .success(let status): return status.kind
        case .failure(let error) where error == .noSuchFile || error == .notAFolder: return nil
        case .failure(let error): throw failure("stat", path, errno: error.code)
        }
    }

    /// Removes a file; true when there was one.
    @discardableResult
    package static func removeFile(_ path: String) throws(CairnError) -> Bool {
        switch Syscalls.unlink(path) {
        case .success: return true
        case .failure(.noSuchFile): return false
        case .failure(let error): throw failure("remove", path, errno: error.code)
        }
    }

    /// Renames a file or a folder (`rename(2)`); refuses to replace anything at `target`.
    package static func move(_ path: String, to target: String) throws(CairnError) {
        guard kind(target) == nil else {
            throw CairnError(.alreadyExists, "cannot move \(path) to \(target): something is there already")
        }
        try check(Syscalls.rename(path, to: target), "rename", path)
    }

    /// Removes `path` if it is an empty folder.
    package static func removeFolderIfEmpty(_ path: String) {
        _ = Syscalls.removeFolder(path)
    }

    /// Removes `path` if it is an empty folder, then its parents while they are empty,
    /// never going above `root`.
    package static func removeEmptyFolders(from path: String, upTo root: String) {
        var current = path
        while current.count > root.count, current.hasPrefix(root), case .success = Syscalls.removeFolder(current) {
            current = parent(of: current)
        }
    }
}
