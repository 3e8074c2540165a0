import AsyncAlgorithms
import CairnCore
import CairnServer
import CairnSystem
import HTTPTypes
import Hummingbird
import NIOCore
import NIOPosix

/// git's own `git http-backend`, run as CGI for one request (as lighttpd and nginx with
/// fcgiwrap run it): the request's path, query, method and headers in its environment, its
/// body on stdin, its answer's head read from stdout and the rest streamed to the client as it
/// comes. Cairn writes no part of git's protocol; the backend runs `upload-pack` or
/// `receive-pack`, and the repository's hooks, as any web server's would.
///
/// The backend is started by `posix_spawn` (``BackendProcess``), not a fork, which would copy
/// the server's page tables for every request, and its stdout is read by the server's event
/// loops. (Measured, the fork was not what makes the server's own time per sync larger than
/// lighttpd's: BENCHMARKS.md, "Serving".)
struct GitHTTPBackend: Sendable {
    /// `git http-backend`.
    let executable: String
    /// The folder of the repositories (`GIT_PROJECT_ROOT`).
    let root: String
    /// Where each run's stderr is kept, in a file without a name, until it ends, on a kernel
    /// without files in memory (which it is kept in otherwise).
    var scratch: String { root }
    /// How long a run may go on once its stdout is read no more, before it is ended.
    var exitLimit: TimeAmount = .seconds(30)

    /// What a request gives the backend.
    struct Call: Sendable {
        var method: String
        var path: GitRequestPath
        var query: String?
        var contentType: String?
        var contentEncoding: String?
        var gitProtocol: String?
        var body: [UInt8]
        /// The authenticated user (`REMOTE_USER`), whom the hooks check.
        var user: String
        var remoteAddress: String
        /// The file the hooks report to (``HookReport``).
        var hookReport: String
    }

    /// How a run ended: its exit status and what it said on stderr (for the log), its time.
    struct Ending: Sendable {
        var status: String
        var stderr: String
        var seconds: Double
        var succeeded: Bool
    }

    /// A run: the answer's head and body, and a task that ends with the process.
    struct Run: Sendable {
        var head: CGIHead
        var body: AsyncThrowingChannel<ByteBuffer, any Error>
        var ending: Task<Ending, Never>
    }

    /// Why no answer came from the backend.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The environment of the backend for `call`: CGI's variables, git's, and the hook report's.
    func environment(for call: Call) -> [String] {
        var variables: [(String, String)] = [
            ("GIT_PROJECT_ROOT", root), ("GIT_HTTP_EXPORT_ALL", "1"),
            ("PATH_INFO", "/\(call.path.folder)/\(call.path.rest)"), ("QUERY_STRING", call.query ?? ""),
            ("REQUEST_METHOD", call.method), ("CONTENT_LENGTH", String(call.body.count)),
            ("REMOTE_USER", call.user), ("REMOTE_ADDR", call.remoteAddress), ("AUTH_TYPE", "Basic"),
            ("GATEWAY_INTERFACE", "CGI/1.1"), ("SERVER_PROTOCOL", "HTTP/1.1"), ("SERVER_SOFTWARE", "cairn"),
            ("PATH", "/usr/local/bin:/usr/bin:/bin"), (HookReport.variable, call.hookReport),
        ]
        if let type = call.contentType { variables.append(("CONTENT_TYPE", type)) }
        if let encoding = call.contentEncoding { variables.append(("HTTP_CONTENT_ENCODING", encoding)) }
        if let version = call.gitProtocol { variables.append(("GIT_PROTOCOL", version)) }
        return variables.map { "\($0.0)=\($0.1)" }
    }

    /// Starts the backend for `call` and waits for its answer's head.
    func start(_ call: Call, clock: @escaping @Sendable () -> Double) async throws -> Run {
        let (heads, headContinuation) = AsyncThrowingStream<CGIHead, any Error>.makeStream()
        let body = AsyncThrowingChannel<ByteBuffer, any Error>()
        let started = clock()
        let process: BackendProcess
        do {
            process = try await BackendProcess.start(executable, environment: environment(for: call), input: call.body, scratch: scratch)
        } catch {
            throw Failure(description: "cannot run \(executable): \(error)")
        }
        let ending = Task { () -> Ending in
            var headSent = false
            let stdin = Task { await process.writeInput() }
            do {
                var pending: [UInt8] = []
                try await process.readOutput { chunk in
                    if headSent {
                        await body.send(chunk)
                        return
                    }
                    pending += chunk.readableBytesView
                    if let (head, start) = CGIHead.read(pending) {
                        headSent = true
                        headContinuation.yield(head)
                        headContinuation.finish()
                        if start < pending.count { await body.send(ByteBuffer(bytes: pending[start...])) }
                        pending = []
                    }
                }
            } catch {
                body.fail(error)
            }
            await stdin.value
            let exit = await process.exit(within: exitLimit)
            let status = exit?.description ?? "not known"
            let said = process.readError(limit: 65_536)
            if !headSent {
                headContinuation.finish(throwing: Failure(description: "git http-backend ended (\(status)) without an answer: \(said)"))
            }
            body.finish()
            return Ending(status: status, stderr: said, seconds: clock() - started, succeeded: exit == .exited(0))
        }
        for try await head in heads {
            return Run(head: head, body: body, ending: ending)
        }
        throw Failure(description: "git http-backend gave no answer")
    }
}
