import CSpawn

#if canImport(Glibc)
import Glibc
#endif

extension Syscalls {
    /// A pipe whose ends close on exec.
    package static func pipe() -> Result<(read: Int32, write: Int32), Errno> {
        var descriptors: [Int32] = [-1, -1]
        let code = cspawn_pipe(&descriptors)
        return code == 0 ? .success((descriptors[0], descriptors[1])) : .failure(Errno(code))
    }

    /// An unnamed file, open for reading and writing, that disappears with its last
    /// descriptor: in memory (`memfd_create`), or where the kernel has none, in `folder`
    /// (`O_TMPFILE`).
    package static func unnamedFile(in folder: String) -> Result<Int32, Errno> {
        retryingOnInterrupt { cspawn_unnamed_file(folder) }
    }

    /// Starts `path` with `arguments` (the first its name) and `environment` (`NAME=value`
    /// each), its stdin, stdout and stderr the descriptors given, every other descriptor
    /// closed, by `posix_spawn`: glibc starts the child without copying the parent's memory,
    /// where a fork copies its page tables, a cost that grows with the parent's size.
    /// Returns the child's pid.
    package static func spawn(
        _ path: String, arguments: [String], environment: [String],
        input: Int32, output: Int32, error: Int32
    ) -> Result<pid_t, Errno> {
        var argumentPointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var environmentPointers: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argumentPointers { free(pointer) }
            for pointer in environmentPointers { free(pointer) }
        }
        var pid: pid_t = 0
        let code = cspawn_start(path, &argumentPointers, &environmentPointers, input, output, error, &pid)
        return code == 0 ? .success(pid) : .failure(Errno(code))
    }

    /// Ends child `pid` at once (SIGKILL).
    package static func kill(_ pid: pid_t) {
        _ = Glibc.kill(pid, SIGKILL)
    }

    /// How a child ended.
    package enum Exit: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signaled(Int32)

        package var description: String {
            switch self {
            case .exited(let code): "exited(\(code))"
            case .signaled(let signal): "signaled(\(signal))"
            }
        }
    }

    /// Waits (blocking the calling thread) until child `pid` has ended, without reaping it:
    /// until ``waitForExit(of:)`` reaps it, its pid names no other process, so a signal sent
    /// to it meanwhile cannot reach one.
    package static func waitForEnd(of pid: pid_t) -> Result<Void, Errno> {
        var info = siginfo_t()
        return retryingOnInterrupt { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }.map { _ in }
    }

    /// Waits (blocking the calling thread) until child `pid` ends, and reaps it.
    package static func waitForExit(of pid: pid_t) -> Result<Exit, Errno> {
        var status: Int32 = 0
        return retryingOnInterrupt { waitpid(pid, &status, 0) }.map { _ in
            // WIFEXITED and friends are macros Swift does not import: the low 7 bits are the
            // signal that ended the child, 0 when it exited, and the next 8 its exit code.
            let signal = status & 0x7f
            return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
        }
    }
}
