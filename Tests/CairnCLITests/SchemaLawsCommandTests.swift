import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// `cairn schema laws` as a user runs it: a line per kind of a good set, and one clear line
/// for bad input.
@Suite(.historiesVerified) struct SchemaLawsCommandTests {
    @Test func everyKindOfASetHoldsTheLaws() throws {
        let result = try runProcess(CLI.executable, ["schema", "laws", "life-in-uk", "--cases", "200", "--seed", "4"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 5, "\(result.stdout)")
        #expect(lines.contains("books/{bookId}: 200 cases, laws hold"))
        #expect(lines.contains("users/{uid}: 200 cases, laws hold"))
        for set in ["edumind", "bonfire", "remi", "oybc"] {
            let other = try runProcess(CLI.executable, ["schema", "laws", set, "--cases", "100"])
            #expect(other.status == 0 && other.stdout.hasSuffix("100 cases, laws hold\n"), "\(set): \(other.stdout)\(other.stderr)")
        }
    }

    @Test func aKindWhoseDocumentsCannotBeGeneratedFailsNamingWhy() throws {
        let folder = TemporaryFolder("cairn-laws-set")
        try FileManager.default.createDirectory(atPath: folder.path + "/codes", withIntermediateDirectories: true)
        let schema =
            #"{"x-cairn": {"path": "users/{uid}/codes/{codeId}"}, "type": "object", "required": ["code"], "properties": {"code": {"type": "string", "pattern": "^(?!x)[a-z]+$"}}}"#
        try schema.write(toFile: folder.path + "/codes/code.schema.json", atomically: true, encoding: .utf8)
        let result = try runProcess(CLI.executable, ["schema", "laws", "codes"], environment: ["CAIRN_SCHEMA_PATH": folder.path])
        #expect(result.status == 1)
        #expect(
            result.stdout
                == "codes/{codeId}: skipped, its documents cannot be generated: code.schema.json: /properties/code/pattern: the pattern ^(?!x)[a-z]+$ cannot be generated from: lookaround or inline options ('(?') at offset 1 are not generated\n",
            "\(result.stdout)")
    }

    /// Numbers past what 64 bits hold and minimums no document honours: the kinds that
    /// cannot be generated say so on their line, the others are checked, exit status 1.
    @Test func extremeBoundsAreALineOfTheirKindNotACrash() throws {
        let folder = TemporaryFolder("cairn-laws-extremes")
        let set = folder.path + "/extremes"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        let schemas = [
            "big":
                #"{"x-cairn": {"path": "users/{uid}/bigs/{bigId}"}, "type": "object", "required": ["v", "n"], "properties": {"v": {"type": "integer", "minimum": 1e300, "maximum": 1e301}, "n": {"type": "integer", "minimum": 9223372036854775800, "x-merge": "max"}}}"#,
            "long":
                #"{"x-cairn": {"path": "users/{uid}/longs/{longId}"}, "type": "object", "required": ["text"], "properties": {"text": {"type": "string", "minLength": 9223372036854775807}}}"#,
        ]
        for (name, schema) in schemas { try schema.write(toFile: set + "/\(name).schema.json", atomically: true, encoding: .utf8) }
        let result = try runProcess(CLI.executable, ["schema", "laws", set, "--cases", "100"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout == """
                bigs/{bigId}: 100 cases, laws hold
                longs/{longId}: skipped, its documents cannot be generated: long.schema.json: /properties/text/minLength: minLength is 9223372036854775807; generated values hold at most 10000

                """, "\(result.stdout)")
    }

    @Test func badInputIsOneLine() throws {
        let unknown = try runProcess(CLI.executable, ["schema", "laws", "no-such-set"])
        #expect(unknown.status == 1 && unknown.stdout.isEmpty)
        #expect(unknown.stderr.split(separator: "\n").count == 1 && unknown.stderr.contains("no-such-set"), "\(unknown.stderr)")
        let zero = try runProcess(CLI.executable, ["schema", "laws", "life-in-uk", "--cases", "0"])
        #expect(zero.status == 64 && zero.stderr.contains("--cases is 1 to 1000000"), "\(zero.stderr)")
    }
}
