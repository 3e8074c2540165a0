import CairnCore
import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Several processes writing one store: each waits its turn, none loses a write, and one
/// that waits too long says the store is busy.
@Suite(.historiesVerified) struct ConcurrentWritersTests {
    let cli = CLI()

    @Test func writersInParallelAllLand() throws {
        try cli("init", "u1")
        let writers = 6
        let rounds = 5
        var processes: [ChildProcess] = []
        for writer in 0..<writers {
            let script = (0..<rounds).map { round in
                "echo '{\"writer\":\(writer),\"round\":\(round)}' | \(CLI.executable) --home \(cli.home) put users/u1/boards/w\(writer)/tasks/t\(round) && \(CLI.executable) --home \(cli.home) checkpoint >/dev/null"
            }.joined(separator: " && ")
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script]
            try process.run()
            processes.append(process)
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        let tree = try cli.git("u1", "ls-tree", "-r", "--name-only", "HEAD", "users").stdout.split(separator: "\n")
        #expect(tree.count == writers * rounds)
        for writer in 0..<writers {
            for round in 0..<rounds {
                let document = try cli("get", "users/u1/boards/w\(writer)/tasks/t\(round)").stdout
                #expect(document == "{\n  \"round\": \(round),\n  \"writer\": \(writer)\n}\n")
            }
        }
        #expect(try cli.git("u1", "status", "--porcelain").stdout == "")
        #expect(try cli.git("u1", "fsck", "--strict").status == 0)
    }

    @Test func aWriterThatWaitsTooLongFailsAsBusy() throws {
        try cli("init", "u1")
        let store = try Home(root: cli.home).openStore("u1")
        // Hold the lock from this process while the tool tries to write.
        try store.withExclusiveAccess {
            let result = try cli("put", "users/u1/books/b1", input: "{}", environment: ["CAIRN_LOCK_TIMEOUT": "0.3"])
            #expect(result.status == 75)
            #expect(
                result.stderr.hasPrefix(
                    "cairn: the store is busy: another cairn process (pid \(getpid())) has held its lock for more than 0.3 s"))
        }
        #expect(try cli("get", "users/u1/books/b1").status == 1)
        #expect(try cli("put", "users/u1/books/b1", input: "{}").status == 0)
    }
}
