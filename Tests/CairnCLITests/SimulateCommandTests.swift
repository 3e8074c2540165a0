import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// `cairn simulate` as a user runs it: schedules of any set, their figures, the replay line
/// of a failure, bad options, and the exam session's pushes.
@Suite(.historiesVerified) struct SimulateCommandTests {
    @Test func schedulesRunAndSayWhatTheyChecked() throws {
        let result = try runProcess(CLI.executable, ["simulate", "--devices", "2", "--steps", "20", "--schedules", "2", "--seed", "3"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasPrefix("2 schedules of 2 devices × 20 steps (seeds 3…4): every invariant held\n"))
        #expect(result.stdout.contains("  values checked: "))
        let verbose = try runProcess(
            CLI.executable, ["simulate", "--devices", "2", "--steps", "5", "--schedules", "1", "--seed", "3", "--verbose"])
        #expect(verbose.stdout.hasPrefix("schedule 3:\n  d"), "\(verbose.stdout)")
        #expect(verbose.stdout.contains("final sync"))
        for bad in [["--devices", "0"], ["--steps", "0"], ["--schedules", "-1"]] {
            let refused = try runProcess(CLI.executable, ["simulate"] + bad)
            #expect(refused.status == 64, "\(bad): \(refused.stderr)")
        }
        let unknown = try runProcess(CLI.executable, ["simulate", "--schema", "no-such-set", "--schedules", "1"])
        #expect(unknown.status == 1 && unknown.stdout.isEmpty, "\(unknown.stdout)")
        #expect(unknown.stderr.split(separator: "\n").count == 1 && unknown.stderr.contains("no-such-set"), "\(unknown.stderr)")
    }

    @Test(arguments: ["edumind", "bonfire", "remi", "oybc"])
    func everySeedSetSimulates(_ set: String) throws {
        let result = try runProcess(CLI.executable, ["simulate", "--schema", set, "--schedules", "2", "--seed", "5"])
        #expect(result.status == 0, "\(set): \(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 schedules of 3 devices × 40 steps (seeds 5…6): every invariant held"), "\(result.stdout)")
        #expect(!result.stdout.contains("skipped"))
    }

    /// An app set whose union is capped by `maxItems`: two devices' additions merge past the
    /// cap, the server's hook refuses the merged document, and the run says so with the seed
    /// and the line that replays it.
    @Test func aBrokenPromiseNamesTheSeedAndTheReplay() throws {
        let folder = TemporaryFolder("cairn-simulate-set")
        let set = folder.path + "/capped-tags"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        let schema =
            #"{"x-cairn": {"path": "users/{uid}/notes/{noteId}"}, "type": "object", "required": ["tags"], "properties": {"tags": {"type": "array", "items": {"enum": ["a", "b", "c", "d", "e"]}, "maxItems": 2, "x-merge": "union"}}}"#
        try schema.write(toFile: set + "/note.schema.json", atomically: true, encoding: .utf8)
        let result = try runProcess(
            CLI.executable, ["simulate", "--schema", "capped-tags", "--schedules", "5"],
            environment: ["CAIRN_SCHEMA_PATH": folder.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let failed = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("FAILED: seed ") }, "\(result.stdout)")
        let seed = try #require(failed.split(separator: " ").dropFirst(2).first)
        #expect(
            failed.contains("(replay: cairn simulate --schema capped-tags --devices 3 --steps 40 --seed \(seed) --schedules 1 --verbose)"),
            "\(failed)")
        #expect(result.stdout.contains("at most 2 allowed (maxItems"), "\(result.stdout)")
        // The replay fails the same way.
        let replay = try runProcess(
            CLI.executable,
            ["simulate", "--schema", "capped-tags", "--devices", "3", "--steps", "40", "--seed", String(seed), "--schedules", "1"],
            environment: ["CAIRN_SCHEMA_PATH": folder.path])
        #expect(replay.status == 1 && replay.stdout.contains("FAILED: seed \(seed) "), "\(replay.stdout)")
    }

    /// An app's set with numbers and patterns no document can honour: each such kind is left
    /// out with one `skipped:` line naming file, pointer and reason, and the others simulate;
    /// a set of nothing else fails with one line.
    @Test func kindsNoDocumentCanHonourAreSkippedWithTheirPlace() throws {
        let folder = TemporaryFolder("cairn-simulate-extremes")
        let set = folder.path + "/extremes"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        let schemas = [
            "note":
                #"{"x-cairn": {"path": "users/{uid}/notes/{noteId}"}, "type": "object", "required": ["n"], "properties": {"n": {"type": "integer", "minimum": 0, "x-merge": "counter"}}}"#,
            "huge":
                #"{"x-cairn": {"path": "users/{uid}/huge/{hugeId}"}, "type": "object", "required": ["items"], "properties": {"items": {"type": "array", "minItems": 1e12}}}"#,
            "code":
                #"{"x-cairn": {"path": "users/{uid}/codes/{codeId}"}, "type": "object", "required": ["code"], "properties": {"code": {"type": "string", "pattern": "^[\\uD800-\\uDBFF]$"}}}"#,
        ]
        for (name, schema) in schemas { try schema.write(toFile: set + "/\(name).schema.json", atomically: true, encoding: .utf8) }
        let result = try runProcess(CLI.executable, ["simulate", "--schema", set, "--schedules", "2"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let skipped = result.stdout.split(separator: "\n").filter { $0.hasPrefix("skipped: ") }
        #expect(
            skipped == [
                "skipped: code.schema.json is left out: code.schema.json: /properties/code/pattern: the pattern ^[\\uD800-\\uDBFF]$ cannot be generated from: a class of no character (surrogates are no characters)",
                "skipped: huge.schema.json is left out: huge.schema.json: /properties/items/minItems: minItems is 1000000000000; generated values hold at most 10000",
            ], "\(result.stdout)")
        #expect(result.stdout.contains("2 schedules of 3 devices × 40 steps (seeds 1…2): every invariant held"))

        try FileManager.default.removeItem(atPath: set + "/note.schema.json")
        let nothing = try runProcess(CLI.executable, ["simulate", "--schema", set, "--schedules", "2"])
        #expect(nothing.status == 1, "\(nothing.stdout)\(nothing.stderr)")
        #expect(
            nothing.stderr.split(separator: "\n").count == 1
                && nothing.stderr.contains("no document of the schema set extremes can be generated"), "\(nothing.stderr)")
    }

    @Test func theExamSessionPushesTwice() throws {
        let result = try runProcess(CLI.executable, ["simulate", "exam-session"])
        #expect(result.status == 0, "\(result.stderr)")
        let row = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("cairn (life-in-uk policies)") })
        let figures = row.split(separator: " ").compactMap { Int($0) }
        #expect(figures.count == 4, "\(row)")
        #expect(figures[0] > 2_400, "a local write per answer and tick")
        #expect(figures[2] == 2, "two pushes: on submit, and in the background")
        #expect(figures[1] < 60, "checkpoints are throttled, not one per write")
    }
}
