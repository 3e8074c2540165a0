import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension Loopback {
    /// Runs a server program in the foreground: stdin from /dev/null, stdout and stderr to
    /// the file `console` (emptied first). It starts with no signal blocked (the test
    /// runner's threads block SIGTERM and SIGCHLD), so ``terminate(_:)`` ends it at once and
    /// it reaps its own children as they end.
    static func start(_ executable: String, _ arguments: [String], console: String) throws -> ChildProcess {
        let consoleURL = URL(fileURLWithPath: console)
        try Data().write(to: consoleURL)
        let output = try FileHandle(forWritingTo: consoleURL)
        defer { try? output.close() }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        return process
    }

    /// Whether a connection to the Unix socket at `path` is accepted (false for a path too
    /// long for one).
    static func canConnect(socket path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            return false
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else {
            return false
        }
        defer { close(descriptor) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
    }

    /// Waits (at most 10 s) until the just started server `process` accepts connections on
    /// `port`. `bound` says, from its log, that it has bound the port itself, so a connection
    /// is to it and not to a program that took the port first. Returns false when the server
    /// exited because the port was taken (its log says `Address already in use`) and this is
    /// not the last try; throws when it exited for another reason or never served (stopping it).
    static func waitUntilServing(
        _ process: ChildProcess, port: Int, name: String, lastTry: Bool,
        log: () -> String, bound: (String) -> Bool
    ) throws -> Bool {
        let deadline = Date() + 10
        while true {
            if !process.isRunning {
                process.waitUntilExit()
                let text = log()
                if text.contains("Address already in use") && !lastTry {
                    return false
                }
                throw GitServerStartError(description: "\(name) exited (status \(process.terminationStatus)) on port \(port):\n\(text)")
            }
            if bound(log()), canConnect(port: port) {
                return true
            }
            if Date() >= deadline {
                terminate(process)
                throw GitServerStartError(description: "\(name) did not accept connections on port \(port) within 10 s:\n\(log())")
            }
            usleep(20_000)
        }
    }
}
