import CairnSystem

/// A direct reference as git's files backend keeps it: `<gitdir>/<name>` holding its commit's
/// id, else a line of `<gitdir>/packed-refs`; moved under `<name>.lock`, as git and libgit2
/// move it, with a line appended to its reflog.
///
/// An update is durable when it returns: the new file is fsynced before it is renamed into
/// place, and its folder after. The reflog lines are appended without fsync, as git appends
/// them: a reflog is a record of the repository's own moves, and the commits it names are
/// in the history whatever happens to it. After a power cut its last line may be missing
/// or spoilt (git skips a line it cannot read).
package struct LooseReference {
    /// The repository's git folder, ending in `/`.
    package let gitdir: String
    /// The reference's full name (`refs/heads/main`).
    package let name: String

    package init(gitdir: String, name: String) {
        self.gitdir = gitdir
        self.name = name
    }

    /// What a reference holds.
    package enum Value: Equatable {
        /// An object id.
        case direct(ObjectID)
        /// Another reference's name (`ref: refs/heads/main`).
        case symbolic(String)
    }

    /// The line an update appends to a reflog: who moved the reference and why.
    package struct ReflogEntry {
        /// `Name <email> <seconds since 1970> <+hhmm>`, as in a commit's committer line.
        package var identity: String
        /// Why it moved (`commit: Checkpoint: 1 added`); new lines become spaces.
        package var message: String
        /// Whether `HEAD` points to the reference, so that its reflog gets the line too.
        package var logsHead: Bool

        package init(identity: String, message: String, logsHead: Bool) {
            self.identity = identity
            self.message = message
            self.logsHead = logsHead
        }
    }

    /// The reference's value: its own file, else its line in `packed-refs`; nil when neither
    /// holds it.
    package func value() throws(GitFormatError) -> Value? {
        if let bytes = try Self.contents(of: gitdir + name) {
            guard let value = Self.parse(bytes) else {
                throw failure(
                    .corrupt, "\(gitdir + name) holds neither an object id nor a reference", "cairn_reference_read", path: gitdir + name)
            }
            return value
        }
        guard let packed = try Self.contents(of: gitdir + "packed-refs") else { return nil }
        for line in packed.split(separator: UInt8(ascii: "\n")) where line.first != UInt8(ascii: "#") && line.first != UInt8(ascii: "^") {
            guard line.count > 41, line[line.startIndex + 40] == UInt8(ascii: " "),
                line[(line.startIndex + 41)...].elementsEqual(name.utf8)
            else { continue }
            guard let id = ObjectID(hex: String(decoding: line.prefix(40), as: UTF8.self)) else {
                throw failure(
                    .corrupt, "\(gitdir)packed-refs has an invalid id for \(name)", "cairn_reference_read", path: gitdir + "packed-refs")
            }
            return .direct(id)
        }
        return nil
    }

    /// Points the reference at `id` if it holds `expected` now (nil: if it does not exist),
    /// checked under its lock; appends `log` to its reflog (and to `HEAD`'s) unless it already
    /// pointed at `id`, which writes nothing.
    ///
    /// Throws `.locked` when `<name>.lock` exists (another git process is writing it),
    /// `.modified` when it does not hold `expected`, `.exists` when it exists and `expected`
    /// is nil. The lock is removed whatever happens.
    package func update(to id: ObjectID, expecting expected: ObjectID?, log: ReflogEntry?) throws(GitFormatError) {
        let path = gitdir + name
        let lock = path + ".lock"
        try Self.makeFolders(of: path, below: gitdir)
        let fd = try FileWriter.createLock(lock, for: name)
        do throws(GitFormatError) {
            let current = try value()
            if let expected {
                guard current == .direct(expected) else {
                    throw failure(
                        .modified, "\(name) no longer points to \(expected.hex): another process moved it", "cairn_reference_update",
                        path: path)
                }
            } else if current != nil {
                throw failure(.exists, "\(name) exists already", "cairn_reference_update", path: path)
            }
            if current == .direct(id) {
                _ = Syscalls.close(fd)
                _ = Syscalls.unlink(lock)
                return
            }
            if let log {
                let old: ObjectID? = if case .direct(let old)? = current { old } else { nil }
                let line = Self.reflogLine(from: old, to: id, log)
                try Self.append(line, toLog: gitdir + "logs/" + name, below: gitdir)
                if log.logsHead { try Self.append(line, toLog: gitdir + "logs/HEAD", below: gitdir) }
            }
        } catch {
            _ = Syscalls.close(fd)
            _ = Syscalls.unlink(lock)
            throw error
        }
        try FileWriter.finish(fd, writing: Array((id.hex + "\n").utf8), temporary: lock, into: path)
    }

    /// A reflog line: `<old> <new> <identity>\t<message>`, new lines in the message made
    /// spaces and white space at the end dropped, as libgit2 and git write it.
    static func reflogLine(from old: ObjectID?, to new: ObjectID, _ log: ReflogEntry) -> [UInt8] {
        let zeros = String(repeating: "0", count: 40)
        var line = Array("\(old?.hex ?? zeros) \(new.hex) \(log.identity)\t\(log.message)".utf8)
        for index in line.indices where line[index] == UInt8(ascii: "\n") { line[index] = UInt8(ascii: " ") }
        while let last = line.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D { line.removeLast() }
        return line + [UInt8(ascii: "\n")]
    }

    /// A reference file's value; nil when it is neither an id nor `ref: <name>`.
    static func parse(_ bytes: [UInt8]) -> Value? {
        var text = String(decoding: bytes, as: UTF8.self)
        while let last = text.last, last.isWhitespace { text.removeLast() }
        if text.hasPrefix("ref: ") { return .symbolic(String(text.dropFirst(5))) }
        return ObjectID(hex: text).map(Value.direct)
    }

    /// A file's bytes; nil when it does not exist.
    static func contents(of path: String) throws(GitFormatError) -> [UInt8]? {
        let fd: Int32
        switch Syscalls.open(path, .reading) {
        case .success(let opened): fd = opened
        case .failure(.noSuchFile), .failure(.notAFolder): return nil
        case .failure(let error): throw posixFailure("open", path, error)
        }
        defer { _ = Syscalls.close(fd) }
        switch Syscalls.readToEnd(fd, chunk: 4096) {
        case .success(let bytes): return bytes
        case .failure(let error): throw posixFailure("read", path, error)
        }
    }

    /// Whether a file exists at `path`.
    package static func exists(_ path: String) -> Bool {
        Syscalls.exists(path)
    }

    /// Appends `line` to the reflog at `path`, creating it and its folders.
    static func append(_ line: [UInt8], toLog path: String, below gitdir: String) throws(GitFormatError) {
        try makeFolders(of: path, below: gitdir)
        let fd: Int32
        switch Syscalls.open(path, .appendingOnly, permissions: 0o666) {
        case .success(let opened): fd = opened
        case .failure(let error): throw posixFailure("open", path, error)
        }
        defer { _ = Syscalls.close(fd) }
        try FileWriter.writeAll(line, to: fd, path: path)
    }

    /// Creates the folders between `gitdir` and the file at `path` (0777 less the umask, as
    /// git makes them).
    static func makeFolders(of path: String, below gitdir: String) throws(GitFormatError) {
        let parts = path.dropFirst(gitdir.count).split(separator: "/").dropLast()
        var folder = gitdir
        for part in parts {
            folder += part + "/"
            if case .failure(let error) = Syscalls.makeFolder(folder, permissions: 0o777), error != .exists {
                throw posixFailure("mkdir", folder, error)
            }
        }
    }
}
