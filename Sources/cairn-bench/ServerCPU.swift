#if canImport(Glibc)
import Glibc
#endif

/// The CPU time a server process has spent, with that of every child it has reaped (lighttpd
/// reaps each `git http-backend` it runs, which reaps `git upload-pack` or `git receive-pack`,
/// which reaps the hooks): the `utime`, `stime`, `cutime` and `cstime` of `/proc/<pid>/stat`.
struct ServerCPU {
    let pid: Int32

    /// Milliseconds of CPU so far, in steps of one clock tick (10 ms on Linux): the server's
    /// and every child it reaped; with `ownOnly`, the server process's alone.
    func milliseconds(ownOnly: Bool = false) throws -> Double {
        guard let file = fopen("/proc/\(pid)/stat", "r") else {
            throw Command.Failure(description: "cannot read /proc/\(pid)/stat: the server is gone")
        }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 4_096)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else {
            throw Command.Failure(description: "cannot read /proc/\(pid)/stat")
        }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The command's name, in brackets, may hold spaces: the fields start after the last ')'.
        guard let close = line.lastIndex(of: ")") else {
            throw Command.Failure(description: "cannot read /proc/\(pid)/stat: \(line)")
        }
        let fields = line[line.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (the state); utime, stime, cutime and cstime are fields 14–17.
        guard fields.count > 14 else { throw Command.Failure(description: "cannot read /proc/\(pid)/stat: \(line)") }
        let ticks = fields[11...(ownOnly ? 12 : 14)].compactMap { Double($0) }.reduce(0, +)
        return ticks * 1_000 / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Waits (up to 2 s) until the server has no child process left, so that the CPU of the
    /// requests just answered is counted: a CGI's time reaches `cutime` once it is reaped.
    func waitForIdle() {
        for _ in 0..<200 {
            guard let file = fopen("/proc/\(pid)/task/\(pid)/children", "r") else { return }
            var buffer = [CChar](repeating: 0, count: 256)
            let busy = fgets(&buffer, Int32(buffer.count), file) != nil && buffer[0] != 0
            fclose(file)
            if !busy { return }
            usleep(10_000)
        }
    }

    /// The CPU the server spent while `work` ran: in all, and in its own process.
    func spent(during work: () throws -> Double) throws -> (result: Double, cpu: Double, own: Double) {
        waitForIdle()
        let (before, ownBefore) = (try milliseconds(), try milliseconds(ownOnly: true))
        let result = try work()
        waitForIdle()
        return (result, try milliseconds() - before, try milliseconds(ownOnly: true) - ownBefore)
    }
}
