import CairnSystem
import Testing

@testable import CairnCore

#if canImport(Glibc)
import Glibc
import CairnToolTestSupport
#endif

/// The server starts git's backend for each request with `posix_spawn`: the program gets its
/// stdin, stdout and stderr and nothing else of the server's — no socket, no file, whether or
/// not it was opened to close on exec — and the signals the server ignores are at their
/// defaults again, so a backend can be stopped and sees a closed pipe as git expects.
@Suite(.historiesVerified) struct ASpawnedProgramGetsOnlyItsThreePipesTests {
    @Test func itHoldsOnlyItsThreeDescriptorsAndItsSignalsAreAtTheirDefaults() throws {
        // A descriptor opened without close-on-exec, as a library might leave one.
        let leaky = open("/dev/null", O_RDONLY)
        #expect(leaky >= 3)
        defer { close(leaky) }
        let previous = signal(SIGUSR2, SIG_IGN)
        defer { signal(SIGUSR2, previous) }
        let previousPipe = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previousPipe) }

        let stdout = try Syscalls.pipe().get()
        let stdin = try Syscalls.pipe().get()
        // One simple command, not a pipeline: while a shell starts a pipeline it holds the pipes'
        // ends itself, and a listing taken then would count them.
        let script = "ls -m /proc/$$/fd; grep SigIgn /proc/$$/status; cat; echo \"env=$CAIRN_SPAWN_TEST\""
        let pid = try Syscalls.spawn(
            "/bin/sh", arguments: ["sh", "-c", script], environment: ["CAIRN_SPAWN_TEST=given"],
            input: stdin.read, output: stdout.write, error: stdout.write
        ).get()
        _ = Syscalls.close(stdin.read)
        _ = Syscalls.close(stdout.write)
        let said: [UInt8] = Array("from stdin\n".utf8)
        try said.withUnsafeBytes { try Syscalls.writeAll(stdin.write, from: $0).get() }
        _ = Syscalls.close(stdin.write)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try Syscalls.read(stdout.read, into: $0).get() }
            if count == 0 { break }
            output += buffer[..<count]
        }
        _ = Syscalls.close(stdout.read)
        #expect(try Syscalls.waitForExit(of: pid).get() == .exited(0))

        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        try #require(lines.count == 4, "\(lines)")
        // The shell's own three (ls reads the folder through no descriptor of the shell's).
        #expect(lines[0] == "0, 1, 2", "\(lines[0])")
        let ignored = try #require(UInt64(lines[1].split(separator: "\t").last.map(String.init) ?? "", radix: 16), "\(lines[1])")
        #expect(ignored & (1 << (UInt64(SIGPIPE) - 1)) == 0, "SIGPIPE ignored: \(lines[1])")
        #expect(ignored & (1 << (UInt64(SIGUSR2) - 1)) == 0, "SIGUSR2 ignored: \(lines[1])")
        #expect(lines[2] == "from stdin")
        #expect(lines[3] == "env=given")
    }

    @Test func aProgramThatIsNotThereIsAnErrorNotAChild() {
        let ends = try? Syscalls.pipe().get()
        defer {
            if let ends {
                _ = Syscalls.close(ends.read)
                _ = Syscalls.close(ends.write)
            }
        }
        guard let ends else {
            Issue.record("no pipe")
            return
        }
        let result = Syscalls.spawn(
            "/nonexistent/program", arguments: ["program"], environment: [],
            input: ends.read, output: ends.write, error: ends.write)
        #expect(throws: Syscalls.Errno.self) { try result.get() }
    }
}
