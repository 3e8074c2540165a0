import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// Same seed, same run: `cairn simulate` and `cairn schema laws`, run twice in separate
/// processes (each with its own order of Swift's dictionaries), print the same bytes — for
/// a set whose maps have several `patternProperties`, each pattern with a schema of its own.
@Suite(.historiesVerified) struct SameSeedSameRunTests {
    /// Marks in a map of five patterns (no two alike), and points in a map of one pattern
    /// that counts, beside free-form notes (`additionalProperties`) that patterns also name.
    static let tally = #"""
        {"x-cairn": {"path": "users/{uid}/tallies/{tallyId}"}, "type": "object", "required": ["marks"],
         "properties": {
           "marks": {"type": "object", "additionalProperties": false, "patternProperties": {
             "^a[0-9]$": {"type": "integer", "minimum": 0, "maximum": 9},
             "^b[0-9]$": {"enum": ["x", "y", "z"]},
             "^c[0-9]$": {"type": "boolean"},
             "^d[0-9]$": {"type": "number", "minimum": 0, "maximum": 1, "multipleOf": 0.25},
             "^e[0-9]$": {"type": "string", "maxLength": 3}}},
           "points": {"type": "object", "patternProperties": {"^[p-r][0-9]$": {"type": "integer", "minimum": 0, "x-merge": "counter"}}},
           "notes": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 4},
             "patternProperties": {"^n[0-9]$": {"type": "integer"}, "^m[0-9]$": {"type": "boolean"}}}}}
        """#

    @Test func twoProcessesGiveTheSameRunByteForByte() throws {
        let folder = TemporaryFolder("cairn-same-seed")
        let set = folder.path + "/tallies"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        try Self.tally.write(toFile: set + "/tally.schema.json", atomically: true, encoding: .utf8)

        let simulate = ["simulate", "--schema", set, "--schedules", "2", "--verbose"]
        let first = try runProcess(CLI.executable, simulate)
        let second = try runProcess(CLI.executable, simulate)
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        #expect(first.stdout.contains("/marks/"), "the marks map is edited: \(first.stdout)")
        // The run's duration is the one figure a clock gives.
        #expect(Self.withoutDuration(first.stdout) == Self.withoutDuration(second.stdout))
        #expect(first.stderr == second.stderr)

        let laws = ["schema", "laws", set, "--cases", "300"]
        let once = try runProcess(CLI.executable, laws)
        let again = try runProcess(CLI.executable, laws)
        #expect(once.status == 0, "\(once.stdout)\(once.stderr)")
        #expect(once.stdout == "tallies/{tallyId}: 300 cases, laws hold\n", "\(once.stdout)")
        #expect(Array(once.stdout.utf8) == Array(again.stdout.utf8) && once.stderr == again.stderr)
    }

    /// The output with the seconds of its last line (`…; 3 s`) left out.
    static func withoutDuration(_ output: String) -> String {
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let index = lines.lastIndex(where: { $0.hasSuffix(" s") }), let cut = lines[index].range(of: "; ", options: .backwards) {
            lines[index] = String(lines[index][..<cut.lowerBound])
        }
        return lines.joined(separator: "\n")
    }
}
