#if canImport(Glibc)
import Glibc
#endif

extension Syscalls {
    package static let processID = Int(getpid())

    /// The machine's host name (`gethostname`); nil when it has none.
    package static func hostName() -> String? {
        var name = [CChar](repeating: 0, count: 256)
        guard gethostname(&name, name.count - 1) == 0 else { return nil }
        let text = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.isEmpty ? nil : text
    }

    /// The running program's own path (`/proc/self/exe`); nil when it cannot be read.
    package static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// This process's environment variables, read from `environ` (an entry without `=` is
    /// skipped; of two with one name, the first counts, as `getenv` finds it).
    package static func environmentVariables() -> [String: String] {
        var variables: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }

    /// Replaces the running program with `path`, given `arguments` (the first its name) and
    /// this process's environment (`execv`); returns only when that failed, with why.
    package static func execute(_ path: String, arguments: [String]) -> Errno {
        var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        execv(path, &pointers)
        return Errno.current
    }

    /// The realtime clock now.
    package static func now() -> Time {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Time(now)
    }

    /// The processors online (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
    package static func processorCount() -> Int {
        max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    }

    /// Seconds on the monotonic clock, which no change of the system's time moves: for
    /// measuring how long something took.
    package static func monotonicSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Seconds of CPU this process has spent so far, in user and system time, including
    /// what it spent before an `exec` that made it this program.
    package static func processCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The time now in UTC, as a calendar reads it.
    package static func calendarNowUTC() -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        return (
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec)
        )
    }

    /// Blocks the calling thread for `seconds`, the whole time even when a signal interrupts
    /// the wait.
    package static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var pause = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&pause, &remaining) == -1 && errno == EINTR { pause = remaining }
    }
}
