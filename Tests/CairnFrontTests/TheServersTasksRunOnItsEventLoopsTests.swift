import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// The server's request handling runs on the event loops that carry its connections, not on
/// the runtime's default pool of threads (whose threads Dispatch names `…qos…`): after 400
/// requests through the gate, the pool's threads have run next to nothing, the event loops'
/// threads the rest. The CPU each thread ran comes from `/proc/PID/task/*/stat`, in ticks of
/// 10 ms.
@Suite(.historiesVerified) struct TheServersTasksRunOnItsEventLoopsTests {
    /// CPU ticks (user + system) of each thread of `pid`, by the thread's name.
    static func ticks(of pid: Int32) throws -> [String: Int] {
        var ticks: [String: Int] = [:]
        for task in try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") {
            let stat = try String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8)
            // `pid (name) state …`: the name may hold spaces; fields 14 and 15 (utime, stime)
            // count from the field after the name's closing parenthesis.
            guard let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let name = String(stat[stat.index(after: open)..<close])
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { continue }
            ticks[name, default: 0] += user + system
        }
        return ticks
    }

    @Test func requestsAreHandledOnTheEventLoops() throws {
        let folder = TemporaryFolder("cairn-front-loops")
        let provider = try IdentityProvider(project: "exam-app")
        let served = try ServedFront(folder: folder.path + "/server", provider: provider)
        defer { served.stop() }
        // One curl, 400 requests without a token on its kept connection: each is a task that
        // reads the path, asks the gate and answers 401.
        let url = "http://127.0.0.1:\(served.port)/git/u1.git/info/refs?service=git-upload-pack"
        let asked = try runProcess(
            "/usr/bin/curl", ["-s", "-w", "%{http_code}\\n"] + Array(repeating: ["-o", "/dev/null", url], count: 400).joined())
        let statuses = asked.stdout.split(separator: "\n")
        #expect(statuses.count == 400 && statuses.allSatisfy { $0 == "401" }, "\(Set(statuses))")

        let ticks = try Self.ticks(of: served.process.processIdentifier)
        let loops = ticks.filter { $0.key.hasPrefix("NIO-SGLTN") }.values.reduce(0, +)
        let pool = ticks.filter { $0.key.contains("qos") }.values.reduce(0, +)
        #expect(loops >= 5, "the event loops ran the requests: \(ticks)")
        #expect(pool <= 1, "the default pool ran next to nothing: \(ticks)")
        #expect(!served.log.contains("tasks run on the default pool"), "\(served.log)")
    }
}
