import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// `kill -9` in the middle of checkpoints: afterwards the repository is sound, HEAD is a
/// checkpoint, every acknowledged document is there, and the next command works unaided.
@Suite(.historiesVerified) struct KilledCheckpointTests {
    let cli = CLI()

    @Test func killedCheckpointsLoseNothing() throws {
        try cli("init", "u1")
        var generator = SystemRandomNumberGenerator()
        var acknowledged: [String: String] = [:]
        let rounds = 30
        var killed = 0
        for round in 0..<rounds {
            // Three acknowledged writes, then a checkpoint killed after a random delay.
            for slot in 0..<3 {
                let path = "users/u1/examAttempts/a\(round)-\(slot)"
                let body = "{\"round\":\(round),\"slot\":\(slot)}"
                let result = try cli("put", path, input: body)
                #expect(result.status == 0, "\(result.stderr)")
                acknowledged[path] = body
            }
            let checkpoint = try cli.start(["checkpoint"])
            usleep(UInt32.random(in: 0...40_000, using: &generator))
            checkpoint.send(SIGKILL)
            checkpoint.waitUntilExit()
            if checkpoint.terminationReason == .uncaughtSignal { killed += 1 }

            #expect(try cli.git("u1", "fsck", "--strict", "--no-dangling").status == 0, "fsck after round \(round)")
            #expect(try cli.git("u1", "rev-parse", "--verify", "HEAD^{commit}").status == 0)
        }
        // Most kills land while the checkpoint runs (it takes tens of milliseconds).
        #expect(killed >= rounds / 3, "only \(killed) of \(rounds) checkpoints were killed")
        let final = try cli("checkpoint")
        #expect(final.status == 0, "\(final.stderr)")
        #expect(try cli.git("u1", "status", "--porcelain").stdout == "")
        for (path, body) in acknowledged {
            let stored = try cli.git("u1", "show", "HEAD:\(path).json").stdout
            #expect(stored == (try JSONParser().parse(body)).canonicalText, "\(path) committed as written")
        }
        let committed = try cli.git("u1", "ls-tree", "-r", "--name-only", "HEAD", "users/u1/examAttempts").stdout
        #expect(committed.split(separator: "\n").count == acknowledged.count)
    }
}
