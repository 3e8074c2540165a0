import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// 2, 4 and 8 processes putting documents into one store and checkpointing it at once, with
/// a patient lock and with an impatient one: every write acknowledged (exit 0) is there, byte
/// for byte, and committed by the last checkpoint; every refused one said "busy" in one line
/// (exit 75) and left nothing behind.
@Suite(.historiesVerified) struct ManyWritersTests {
    struct Tally: CustomStringConvertible {
        var acknowledged = 0
        var busy = 0
        var lost = 0
        var description: String { "\(acknowledged) acknowledged, \(busy) busy, \(lost) lost" }
    }

    let rounds = 12

    /// Starts `writers` shells, each putting `rounds` documents and checkpointing every third,
    /// and records each command's exit status.
    func run(writers: Int, lockTimeout: String, cli: CLI) throws -> Tally {
        try cli("init", "u1")
        var processes: [ChildProcess] = []
        for writer in 0..<writers {
            let log = cli.scratch("w\(writer)")
            let script = """
                for r in $(seq 0 \(rounds - 1)); do
                  echo "{\\"writer\\":\(writer),\\"round\\":$r}" | "$CAIRN" --home "$HOME_DIR" put users/u1/boards/w\(writer)/tasks/t$r 2>>"\(log).err"
                  echo "put $r $?" >>"\(log).status"
                  if [ $((r % 3)) -eq 2 ]; then
                    "$CAIRN" --home "$HOME_DIR" checkpoint >/dev/null 2>>"\(log).err"
                    echo "checkpoint $r $?" >>"\(log).status"
                  fi
                done
                """
            let process = ChildProcess()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script]
            process.environment = ProcessInfo.processInfo.environment.merging(
                ["CAIRN": CLI.executable, "HOME_DIR": cli.home, "CAIRN_LOCK_TIMEOUT": lockTimeout]) { $1 }
            try process.run()
            processes.append(process)
        }
        for process in processes { process.waitUntilExit() }

        var tally = Tally()
        for writer in 0..<writers {
            let log = cli.scratch("w\(writer)")
            let statuses = try String(contentsOfFile: log + ".status", encoding: .utf8).split(separator: "\n")
            #expect(statuses.count == rounds + rounds / 3)
            for line in statuses {
                let parts = line.split(separator: " ")
                let (command, round, status) = (parts[0], Int(parts[1])!, Int32(parts[2])!)
                #expect(status == 0 || status == 75, "writer \(writer): \(line)")
                guard command == "put" else { continue }
                // The document's file, read directly (what `cairn get` prints, in canonical form).
                let path = "users/u1/boards/w\(writer)/tasks/t\(round)"
                let stored = try? String(contentsOfFile: cli.home + "/u1/" + path + ".json", encoding: .utf8)
                if status == 0 {
                    tally.acknowledged += 1
                    let expected = "{\n  \"round\": \(round),\n  \"writer\": \(writer)\n}\n"
                    if stored != expected { tally.lost += 1 }
                } else {
                    tally.busy += 1
                    // Refused: nothing of it was written.
                    #expect(stored == nil, "\(path) was refused as busy, yet it is there")
                }
            }
            let errors = (try? String(contentsOfFile: log + ".err", encoding: .utf8)) ?? ""
            for line in errors.split(separator: "\n") {
                #expect(line.hasPrefix("cairn: the store is busy: another cairn process"), "writer \(writer): \(line)")
            }
        }
        // The last checkpoint commits every acknowledged write; the store is sound.
        #expect(try cli("checkpoint").status == 0)
        let committed = try cli.git("u1", "ls-tree", "-r", "--name-only", "HEAD", "users").stdout.split(separator: "\n")
        #expect(committed.count == tally.acknowledged)
        #expect(try cli.git("u1", "status", "--porcelain").stdout == "")
        #expect(try cli.git("u1", "fsck", "--full", "--strict").status == 0)
        return tally
    }

    @Test(arguments: [2, 4, 8])
    func writersWaitingTheirTurnAllLand(writers: Int) throws {
        let tally = try run(writers: writers, lockTimeout: "30", cli: CLI())
        print("\(writers) writers, patient lock: \(tally)")
        #expect(tally.lost == 0)
        #expect(tally.busy == 0)
        #expect(tally.acknowledged == writers * rounds)
    }

    @Test(arguments: [4, 8])
    func impatientWritersAreToldTheStoreIsBusy(writers: Int) throws {
        let tally = try run(writers: writers, lockTimeout: "0.001", cli: CLI())
        print("\(writers) writers, 1 ms lock timeout: \(tally)")
        #expect(tally.lost == 0)
        #expect(tally.acknowledged + tally.busy == writers * rounds)
        #expect(tally.acknowledged > 0)
    }
}
