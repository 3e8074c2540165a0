import CairnCore
import CairnSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// Pushes to one user's repository stopped while its copy is taken (a move to another shard):
/// a push runs holding the shared `flock` of `<uid>.git/cairn-push.lock` (a ``PushPermit``),
/// and a hold takes it exclusively — waiting for the pushes under way to end, while new ones
/// are turned away — then leaves the marker `<uid>.git/cairn-hold`, which turns away every
/// push until it is released. Fetches go on. The kernel drops a crashed server's locks; the
/// marker stays until the move is finished or abandoned.
public enum PushHold {
    static func lockFile(_ repository: String) -> String { repository + "/cairn-push.lock" }
    static func marker(_ repository: String) -> String { repository + "/cairn-hold" }

    /// Whether pushes to `repository` are held.
    public static func isHeld(_ repository: String) -> Bool {
        FileSystem.kind(marker(repository)) != nil
    }

    /// Holds pushes to `repository`, once the pushes under way ended (at most `timeout`
    /// seconds; a push still running then leaves nothing held, and the hold is refused).
    public static func take(_ repository: String, timeout: Double = 60) throws(CairnError) {
        guard FileSystem.kind(repository) == .folder else {
            throw CairnError(.notFound, "\(repository) is not a repository; nothing was held")
        }
        let fd = try openLock(repository)
        defer { _ = Syscalls.close(fd) }
        let deadline = Syscalls.monotonicSeconds() + timeout
        while true {
            switch Syscalls.tryLock(fd) {
            case .success(true):
                defer { Syscalls.unlock(fd) }
                try FileSystem.writeAtomically(Array("held for a move\n".utf8), to: marker(repository), durable: true)
                return
            case .success(false):
                guard Syscalls.monotonicSeconds() < deadline else {
                    throw CairnError(
                        .busy, "a push to \(repository) still ran after \(Int(timeout)) s; nothing was held, try the move again")
                }
                Syscalls.sleep(seconds: 0.01)
            case .failure(let error):
                throw CairnError(.io, "cannot lock \(lockFile(repository)): \(error)")
            }
        }
    }

    /// Lets pushes to `repository` in again.
    public static func release(_ repository: String) throws(CairnError) {
        _ = try FileSystem.removeFile(marker(repository))
    }

    static func openLock(_ repository: String) throws(CairnError) -> Int32 {
        switch Syscalls.open(lockFile(repository), .updating, permissions: 0o644) {
        case .success(let fd): return fd
        case .failure(let error): throw CairnError(.io, "cannot open \(lockFile(repository)): \(error)")
        }
    }
}

/// Leave for one push to run: the shared lock a ``PushHold`` waits for. Released once the
/// push's backend ended (or when dropped).
public final class PushPermit: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Leave to push to `repository`, or nil while its pushes are held.
    public static func acquire(_ repository: String) -> PushPermit? {
        guard let fd = try? PushHold.openLock(repository) else { return nil }
        guard case .success(true) = Syscalls.tryLockShared(fd), !PushHold.isHeld(repository) else {
            _ = Syscalls.close(fd)
            return nil
        }
        return PushPermit(descriptor: fd)
    }

    deinit {
        Syscalls.unlock(descriptor)
        _ = Syscalls.close(descriptor)
    }
}
