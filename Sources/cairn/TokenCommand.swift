import CairnCommandLine
import CairnCore
import CairnSystem

/// The command a store names to print a fresh ID token (`cairn remote set URL --token-command
/// CMD`), run as git runs a credential helper: by `/bin/sh -c`, its first line of output the
/// token, `CAIRN_TOKEN_FRESH=1` set when the last token was refused (an expired one). It has 30
/// seconds. Its token is kept in memory only; a failure is one line that never holds it.
///
/// It is started with `posix_spawn` (CairnSystem's `Syscalls.spawn`) and read through two
/// pipes, so the tool needs nothing of Foundation's processes.
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
        // Every descriptor opened here is closed when the run ends, whatever happens.
        var opened: [Int32] = []
        defer { for descriptor in opened { _ = Syscalls.close(descriptor) } }
        func made<T>(_ result: Result<T, Syscalls.Errno>) throws(CairnError) -> T {
            switch result {
            case .success(let value): return value
            case .failure(let error): throw failure("cannot be run: \(error)")
            }
        }
        let input = try made(Syscalls.open("/dev/null", .reading))
        opened.append(input)
        let output = try made(Syscalls.pipe())
        opened += [output.read, output.write]
        let errors = try made(Syscalls.pipe())
        opened += [errors.read, errors.write]
        var environment = Environment.current.variables
        environment["CAIRN_TOKEN_FRESH"] = fresh ? "1" : nil
        let pid = try made(
            Syscalls.spawn(
                "/bin/sh", arguments: ["/bin/sh", "-c", command], environment: environment.map { "\($0.key)=\($0.value)" },
                input: input, output: output.write, error: errors.write))
        // The child's ends are the child's now: the pipes end when it does.
        for descriptor in [input, output.write, errors.write] { _ = Syscalls.close(descriptor) }
        opened = [output.read, errors.read]

        // Read both while it runs (a full pipe would stop it), for 30 s at most.
        var printed: [UInt8] = [], said: [UInt8] = []
        var open = [output.read, errors.read]
        let deadline = Syscalls.monotonicSeconds() + limit
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !open.isEmpty {
            let left = deadline - Syscalls.monotonicSeconds()
            guard left > 0 else {
                Syscalls.kill(pid)
                _ = Syscalls.waitForExit(of: pid)
                throw failure("gave no token in \(Int(limit)) s")
            }
            guard case .success(let ready) = Syscalls.ready(open, for: .readable, seconds: min(left, 1)) else { break }
            for descriptor in ready {
                switch buffer.withUnsafeMutableBytes({ Syscalls.read(descriptor, into: $0) }) {
                case .success(let count) where count > 0:
                    if descriptor == output.read {
                        printed += buffer[0..<count]
                    } else if said.count < 65_536 {
                        said += buffer[0..<count]
                    }
                default:
                    open.removeAll { $0 == descriptor }
                }
            }
        }
        let exit = Syscalls.waitForExit(of: pid)
        guard case .success(.exited(0)) = exit else {
            let first = String(decoding: said, as: UTF8.self).split(separator: "\n").first.map { ": " + $0 } ?? ""
            let status =
                switch exit {
                case .success(.exited(let code)): "exit status \(code)"
                case .success(.signaled(let signal)): "exit status \(128 + signal)"
                case .failure(let error): "\(error)"
                }
            throw failure("failed (\(status))\(first)")
        }
        guard let line = String(decoding: printed, as: UTF8.self).split(separator: "\n").first, !line.isEmpty else {
            throw failure("printed no token")
        }
        return String(line)
    }
}
