import CairnSystem
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import NIOCore
import Testing

@testable import CairnCore
@testable import CairnFront

#if canImport(Glibc)
import Glibc
#endif

/// A backend that goes on running once the server reads no more of its stdout is ended, as
/// git's backend must be when it spins on an empty stdin after its answer; one that ends on
/// its own is left to end, and its exit is what it said.
@Suite(.historiesVerified, .timeLimit(.minutes(5))) struct ABackendThatOutlivesItsAnswerIsEndedTests {
    let folder = TemporaryFolder("cairn-front-backend")

    /// A program that writes `answer`, closes its stdout, then runs `then`.
    func program(_ name: String, then: String) throws -> String {
        let path = folder.path + "/" + name
        let script = "#!/bin/sh\nprintf 'Status: 200 OK\\r\\n\\r\\nanswer'\nexec >&-\n\(then)\n"
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    func run(_ path: String, limit: TimeAmount) async throws -> (output: String, exit: Syscalls.Exit?) {
        let process = try await BackendProcess.start(path, environment: ["PATH=/usr/bin:/bin"], input: [], scratch: folder.path)
        var output: [UInt8] = []
        try await process.readOutput { output += $0.readableBytesView }
        let exit = await process.exit(within: limit)
        _ = process.readError(limit: 100)
        return (String(decoding: output, as: UTF8.self), exit)
    }

    @Test func aProgramThatSpinsAfterItsAnswerIsKilledAtTheLimit() async throws {
        // Without the limit it would spin on, and the test with it, until its time limit.
        let spinning = try program("spins", then: "while :; do :; done")
        let (output, exit) = try await run(spinning, limit: .milliseconds(300))
        #expect(output.hasSuffix("answer"))
        #expect(exit == .signaled(SIGKILL))
    }

    @Test func aProgramThatEndsOnItsOwnIsNotKilled() async throws {
        let ending = try program("ends", then: "sleep 0.2; exit 3")
        let (output, exit) = try await run(ending, limit: .seconds(20))
        #expect(output.hasSuffix("answer"))
        #expect(exit == .exited(3))
    }
}
