import CairnMerge
import CairnSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One writer at a time per store, across processes.
///
/// The lock is `flock(2)` on `.git/cairn/lock`: the kernel releases it when its owner exits,
/// however it exits, so a lock is never taken over while its owner lives and never stays
/// behind a dead one. A second writer waits up to `timeout`, then fails with a "busy" error.
///
/// The file also records who holds it (`busy <pid> <start>`) and is set to `idle` on a clean
/// release. Finding `busy` on acquiring means the previous holder was killed mid-operation:
/// the lock files libgit2 leaves in that case (`index.lock`, `HEAD.lock`, a ref's `.lock`),
/// which would block writes forever, are removed — only those created since that holder
/// started. A holder notes itself before it writes through libgit2 or the index writer
/// (`noteBusy()`); one that only writes documents (a put, a delete) leaves no lock file
/// when killed, and spares the file its two writes — unless the write changes a count
/// above the document: then a kill between the two files' writes is seen.
///
/// The file stays open between holdings (a put takes the lock once per write): each holding
/// takes the `flock` of the open file, then checks that the path still names that file. A
/// file removed or replaced meanwhile (a `.git/cairn` deleted by hand) is let go and the one
/// at the path taken instead, so two holders never lock two different files.
///
/// A store's lock (`repairsCounts`) also keeps the sign that counts may be behind their
/// documents: a holder found killed, or one that failed half way through a write below a
/// count and said so (``leaveForRecount()``), leaves the file `recount` at its release, and
/// the next holder is told (``countsNeedRepair``) until it says the counts are repaired
/// (``countsRepaired()``) — a holder that fails first passes the sign on.
final class StoreLock {
    let path: String
    let gitdir: String
    let timeout: Double
    /// The descriptor while the lock is held; -1 otherwise.
    private var descriptor: Int32 = -1
    /// The lock file as opened, kept between holdings: its descriptor and what it is (the
    /// device and inode the path named when it was opened).
    private var file: (descriptor: Int32, device: UInt64, inode: UInt64)?
    private var depth = 0
    /// Whether the file says `busy` for this holder.
    private var noted = false
    /// Whether this lock keeps the sign that counts need repair (a store's lock).
    let repairsCounts: Bool
    /// Whether counts may be behind their documents: the previous holder was killed, or left
    /// the file `recount`. Cleared by ``countsRepaired()``.
    private(set) var countsNeedRepair = false
    /// Whether the file says `recount` when this holding ends.
    private var leavingForRecount = false

    /// The lock of the repository at `gitdir`: `cairn/lock` in it, or `file` when given (the
    /// lock Cairn takes on a bare remote while it pushes there).
    init(gitdir: String, timeout: Double, file: String = StoreLayout.lockFile, repairsCounts: Bool = false) {
        self.gitdir = gitdir.hasSuffix("/") ? gitdir : gitdir + "/"
        self.path = self.gitdir + file
        self.timeout = timeout
        self.repairsCounts = repairsCounts
    }

    deinit {
        if let file { _ = Syscalls.close(file.descriptor) }
    }

    /// Runs `body` holding the lock; nested calls on the same lock just run `body`.
    /// `notingBusy` false: `body` writes neither through libgit2 nor an index (or calls
    /// ``noteBusy()`` first), so a kill in it leaves no lock file behind.
    func withLock<T>(notingBusy: Bool = true, _ body: () throws -> T) throws -> T {
        if depth > 0 {
            if notingBusy { try noteBusy() }
            depth += 1
            defer { depth -= 1 }
            return try body()
        }
        try acquire(notingBusy: notingBusy)
        depth = 1
        defer {
            depth = 0
            release()
        }
        return try body()
    }

    /// Records in the file that this process holds the lock, before a write that can leave
    /// lock files behind if the process is killed; once per holding. The lock must be held.
    func noteBusy() throws(CairnError) {
        guard !noted, descriptor != -1 else { return }
        // Without this note, the next writer could not tell that this one was killed and
        // would leave its lock files in place: a store that cannot note it is not written.
        if case .failure(let error) = writeState("busy \(Syscalls.processID) \(Int(Date().timeIntervalSince1970))\n") {
            throw FileSystem.failure("write", path, errno: error.code)
        }
        noted = true
    }

    private func acquire(notingBusy: Bool) throws(CairnError) {
        let deadline = Date().addingTimeInterval(timeout)
        var pause = 0.002
        var fd: Int32
        var replacements = 0
        while true {
            fd = try openFile()
            let taken: Bool
            switch Syscalls.tryLock(fd) {
            case .success(let result): taken = result
            case .failure(let error):
                closeFile()
                throw FileSystem.failure("lock", path, errno: error.code)
            }
            if taken {
                let stillAtPath: Bool
                do throws(CairnError) {
                    stillAtPath = try isStillAtPath()
                } catch {
                    Syscalls.unlock(fd)
                    throw error
                }
                if stillAtPath { break }
                // The file was removed or replaced since it was opened: its lock keeps out no
                // one. The file now at the path is taken instead.
                Syscalls.unlock(fd)
                closeFile()
                replacements += 1
                if replacements > 8 {
                    throw CairnError(
                        .io,
                        "cannot lock the store: its lock file \(path) keeps being removed or replaced; stop whatever removes it and try again"
                    )
                }
                continue
            }
            if Date() >= deadline {
                let holder = Self.describeHolder(readState(fd), lockedBy: Self.lockHolder(of: fd))
                throw CairnError(
                    .busy,
                    "the store is busy: \(holder) has held its lock for more than \(Self.seconds(timeout)); try again when it is done")
            }
            Syscalls.sleep(seconds: pause)
            pause = min(pause * 2, 0.05)
        }
        descriptor = fd
        noted = false
        // A previous holder's `busy` is replaced by this one's, so that its lock files are
        // cleared once: a later writer must not take newer ones, some other program's, for its.
        var recovered = false
        let previous = readState(fd)
        if let previous, previous.hasPrefix("busy ") {
            recoverAfterCrash(of: previous)
            recovered = true
        }
        if repairsCounts, recovered || previous?.hasPrefix("recount") == true {
            countsNeedRepair = true
        }
        leavingForRecount = countsNeedRepair
        if notingBusy || recovered {
            do throws(CairnError) {
                try noteBusy()
            } catch {
                descriptor = -1
                Syscalls.unlock(fd)
                throw error
            }
        }
    }

    /// Leaves the file `recount` when this holding ends: a write that failed half way (a
    /// document written, the count above it not) is then repaired by the next holder, in
    /// this process or another. The holder has noted itself busy.
    func leaveForRecount() {
        leavingForRecount = repairsCounts
    }

    /// The holder has brought every count up to date: the sign is cleared.
    func countsRepaired() {
        countsNeedRepair = false
        leavingForRecount = false
        // A holder that noted itself writes `idle` at its release; one that did not clears
        // the `recount` it found now.
        if !noted { _ = writeState("idle\n") }
    }

    private func release() {
        // A failure leaves `busy`: the next writer then clears lock files, which is harmless.
        // A holder that did not note itself leaves the file as it found it (`recount` too).
        if noted { _ = writeState(leavingForRecount ? "recount\n" : "idle\n") }
        leavingForRecount = false
        noted = false
        Syscalls.unlock(descriptor)
        descriptor = -1
    }

    /// The lock file's descriptor: the one kept from an earlier holding, or the file opened
    /// (and its folder made) now.
    private func openFile() throws(CairnError) -> Int32 {
        if let file { return file.descriptor }
        var opened = Syscalls.open(path, .updating)
        if case .failure(.noSuchFile) = opened {
            try FileSystem.makeFolders(FileSystem.parent(of: path))
            opened = Syscalls.open(path, .updating)
        }
        let fd = try FileSystem.check(opened, "open", path)
        switch Syscalls.status(of: fd) {
        case .success(let status):
            file = (fd, status.device, status.inode)
            return fd
        case .failure(let error):
            _ = Syscalls.close(fd)
            throw FileSystem.failure("stat", path, errno: error.code)
        }
    }

    /// Whether the path still names the open lock file (one `stat`): false when another file
    /// is there now, or none.
    private func isStillAtPath() throws(CairnError) -> Bool {
        guard let file else { return false }
        switch Syscalls.status(of: path, followingLinks: true) {
        case .success(let status): return status.device == file.device && status.inode == file.inode
        case .failure(.noSuchFile): return false
        case .failure(let error): throw FileSystem.failure("stat", path, errno: error.code)
        }
    }

    private func closeFile() {
        if let file { _ = Syscalls.close(file.descriptor) }
        file = nil
    }

    private func readState(_ fd: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 128)
        guard case .success(let count) = buffer.withUnsafeMutableBytes({ Syscalls.read(fd, into: $0, at: 0) }), count > 0 else {
            return nil
        }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }

    /// Writes the state in place, padded with spaces to a fixed width: the file keeps its
    /// size, so no write of it allocates or frees a block (truncating it did, at a cost that
    /// showed in every write). A write cut short fails as an I/O error.
    private func writeState(_ text: String) -> Result<Void, Syscalls.Errno> {
        var bytes = Array(text.utf8.filter { $0 != 0x0A })
        bytes += [UInt8](repeating: 0x20, count: max(0, Self.stateWidth - 1 - bytes.count)) + [0x0A]
        return bytes.withUnsafeBytes { Syscalls.write(descriptor, from: $0, at: 0) }.flatMap { written in
            written == bytes.count ? .success(()) : .failure(.ioError)
        }
    }

    /// `busy <pid> <start>` fits with room to spare; an older, longer state is overwritten whole.
    private static let stateWidth = 64

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }

    private static func describeHolder(_ state: String?, lockedBy pid: Int32?) -> String {
        let fields = state?.split(separator: " ") ?? []
        if fields.count >= 2, fields[0] == "busy" { return "another cairn process (pid \(fields[1]))" }
        // A holder that writes documents only leaves the file `idle`: the kernel knows it.
        if let pid { return "another cairn process (pid \(pid))" }
        return "another cairn process"
    }

    /// The process holding the `flock` of the file open as `fd`, as the kernel lists it in
    /// `/proc/locks` (`1: FLOCK ADVISORY WRITE <pid> <major>:<minor>:<inode> 0 EOF`); nil
    /// where the list is missing or does not name the file.
    private static func lockHolder(of fd: Int32) -> Int32? {
        guard case .success(let status) = Syscalls.status(of: fd),
            let list = try? String(contentsOfFile: "/proc/locks", encoding: .utf8)
        else { return nil }
        let major = ((status.device >> 8) & 0xFFF) | ((status.device >> 32) & ~0xFFF)
        let minor = (status.device & 0xFF) | ((status.device >> 12) & ~0xFF)
        for line in list.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[1] == "FLOCK", fields[3] == "WRITE" else { continue }
            let file = fields[5].split(separator: ":")
            guard file.count == 3, UInt64(file[0], radix: 16) == major, UInt64(file[1], radix: 16) == minor,
                UInt64(file[2]) == status.inode, let pid = Int32(fields[4]), pid > 0
            else { continue }
            return pid
        }
        return nil
    }

    /// Removes lock files left by a holder that was killed — libgit2's (`HEAD.lock`, a ref's
    /// `.lock`, `config.lock`) and the index writer's (`index.lock`, `sharedindex.*.lock`,
    /// offset tables) — but only those modified since it started (a second before, for clock
    /// granularity): an older one belongs to some other program.
    private func recoverAfterCrash(of state: String) {
        let fields = state.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 3, let started = Int(fields[2]) else { return }
        var candidates: [String] = []
        for folder in ["", StoreLayout.sideFolder, "refs/heads/", "refs/remotes/origin/"] {
            candidates += FileSystem.names(in: gitdir + folder)
                .filter { $0.hasSuffix(".lock") && gitdir + folder + $0 != path }
                .map { folder + $0 }
        }
        for name in candidates {
            let file = gitdir + name
            guard case .success(let status) = Syscalls.status(of: file, followingLinks: false),
                status.modified.seconds >= started - 1
            else { continue }
            _ = Syscalls.unlink(file)
        }
    }
}
