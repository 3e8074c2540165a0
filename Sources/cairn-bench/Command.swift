#if canImport(Glibc)
import Glibc
#endif

/// A program run as a whole process, the way a user's shell or script runs it: started with
/// posix_spawn (no shell), standard input empty, its output kept in a file for the error
/// message when it fails.
struct Command: CustomStringConvertible {
    var executable: String
    var arguments: [String]
    var environment: [String: String] = [:]

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
    }

    var description: String { ([executable] + arguments).joined(separator: " ") }

    /// Runs the program and returns what it wrote on standard output; a non-zero exit throws
    /// with what it wrote on standard error.
    @discardableResult
    func run() throws -> String {
        let (status, output, errors) = try spawn()
        guard status == 0 else {
            throw Failure(description: "\(self) exited with \(status): \(errors)")
        }
        return output
    }

    /// Runs the program to its end and returns the wall time in milliseconds, from just
    /// before the process is spawned to just after it is reaped.
    /// `allowing`: exit statuses besides 0 that say the program did its work.
    func timed(allowing statuses: Set<Int32> = []) throws -> Double {
        var elapsed = 0.0
        let (status, _, errors) = try spawn(elapsed: &elapsed)
        guard status == 0 || statuses.contains(status) else {
            throw Failure(description: "\(self) exited with \(status): \(errors)")
        }
        return elapsed
    }

    /// Runs the program to its end under GNU time and returns its peak memory: the largest
    /// resident set, in MiB, of the program or of any process it waited for (`git clone` runs
    /// `git index-pack` as a process of its own). Not from this program's own `wait4`: a
    /// process started by `posix_spawn` counts the memory of the program that started it
    /// until its `exec`. `allowing`: exit statuses besides 0 that say the program did its work.
    func peakMemory(allowing statuses: Set<Int32> = []) throws -> Double {
        let report = Self.scratch("peak")
        defer { unlink(report) }
        var timed = Command("/usr/bin/time", ["-f", "%M", "-o", report, executable] + arguments, environment: environment)
        timed.environment = environment
        let (status, _, errors) = try timed.spawn()
        guard status == 0 || statuses.contains(status) else {
            throw Failure(description: "\(self) exited with \(status): \(errors)")
        }
        // With a non-zero status, GNU time says so on a line before the figure.
        guard let kibibytes = Self.contents(report).split(separator: "\n").last.flatMap({ Double($0) }) else {
            throw Failure(description: "/usr/bin/time gave no peak memory for \(self): \(Self.contents(report))")
        }
        return kibibytes / 1_024
    }

    /// Runs the program and returns what it wrote on standard output; an exit status other
    /// than 0 and `statuses` throws with what it wrote on standard error.
    func output(allowing statuses: Set<Int32>) throws -> String {
        let (status, output, errors) = try spawn()
        guard status == 0 || statuses.contains(status) else {
            throw Failure(description: "\(self) exited with \(status): \(errors)")
        }
        return output
    }

    private func spawn() throws -> (Int32, String, String) {
        var elapsed = 0.0
        return try spawn(elapsed: &elapsed)
    }

    private func spawn(elapsed: inout Double) throws -> (Int32, String, String) {
        let outputPath = Self.scratch("out")
        let errorPath = Self.scratch("err")
        defer {
            unlink(outputPath)
            unlink(errorPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var merged: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                merged[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        merged.merge(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let start = Stopwatch.now()
        let result = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard result == 0 else {
            throw Failure(description: "cannot start \(executable): \(String(cString: strerror(result)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        elapsed = Stopwatch.now() - start
        let exit = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exit, Self.contents(outputPath), Self.contents(errorPath))
    }

    private static func scratch(_ name: String) -> String {
        let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        return "\(folder)/cairn-bench-\(getpid())-\(name)"
    }

    private static func contents(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
