import CairnCommandLine
import CairnCore
import CairnSystem

#if canImport(Glibc)
import Glibc
#endif

/// The command a store names to print a fresh ID token (`cairn remote set URL --token-command
/// CMD`), run as git runs a credential helper: by `/bin/sh -c`, its first line of output the
/// token, `CAIRN_TOKEN_FRESH=1` set when the last token was refused (an expired one). It has 30
/// seconds. Its token is kept in memory only; a failure is one line that never holds it.
///
/// It is started with `posix_spawn` and read through two pipes, so the tool needs nothing
/// of Foundation's processes.
enum TokenCommand {
    static func provider(_ command: String) -> TokenProvider {
        TokenProvider { fresh in
            try run(command, fresh: fresh)
        }
    }

    static let limit = 30.0

    static func run(_ command: String, fresh: Bool) throws(CairnError) -> String {
        let shown = String(reflecting: command)
        func failure(_ what: String) -> CairnError {
            CairnError(.authentication, "the token command \(shown) \(what)", remedy: .giveCredentials)
        }
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { throw failure("cannot be run: \(String(cString: strerror(errno)))") }
        guard pipe(&errors) == 0 else {
            close(output[0])
            close(output[1])
            throw failure("cannot be run: \(String(cString: strerror(errno)))")
        }
        // Neither end stays open in another program the tool starts.
        for fd in output + errors { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        var environment = Environment.current.variables
        environment["CAIRN_TOKEN_FRESH"] = fresh ? "1" : nil
        let arguments = ["/bin/sh", "-c", command].map { $0.withCString { strdup($0) } } + [nil]
        let variables = environment.map { "\($0.key)=\($0.value)".withCString { strdup($0) } } + [nil]
        defer {
            for pointer in arguments { free(pointer) }
            for pointer in variables { free(pointer) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, arguments, variables)
        close(output[1])
        close(errors[1])
        defer {
            close(output[0])
            close(errors[0])
        }
        guard spawned == 0 else { throw failure("cannot be run: \(String(cString: strerror(spawned)))") }

        // Read both while it runs (a full pipe would stop it), for 30 s at most.
        var printed: [UInt8] = [], said: [UInt8] = []
        var open: [(fd: Int32, isOutput: Bool)] = [(output[0], true), (errors[0], false)]
        let deadline = Syscalls.monotonicSeconds() + limit
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !open.isEmpty {
            let left = deadline - Syscalls.monotonicSeconds()
            guard left > 0 else {
                kill(pid, SIGKILL)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                throw failure("gave no token in \(Int(limit)) s")
            }
            var polled = open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&polled, nfds_t(polled.count), Int32(min(left, 1) * 1000))
            if ready < 0, errno != EINTR { break }
            for (index, entry) in polled.enumerated().reversed() where entry.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if open[index].isOutput { printed += buffer[0..<count] } else if said.count < 65_536 { said += buffer[0..<count] }
                } else if count == 0 || errno != EINTR {
                    open.remove(at: index)
                }
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exited = status & 0x7f == 0
        let code = (status >> 8) & 0xff
        guard exited, code == 0 else {
            let first = String(decoding: said, as: UTF8.self).split(separator: "\n").first.map { ": " + $0 } ?? ""
            throw failure("failed (exit status \(exited ? code : 128 + (status & 0x7f)))\(first)")
        }
        guard let line = String(decoding: printed, as: UTF8.self).split(separator: "\n").first, !line.isEmpty else {
            throw failure("printed no token")
        }
        return String(line)
    }
}
