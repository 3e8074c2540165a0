import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// `cairn test` as a CI job runs it: scenario files that pass and fail, the golden cases (the
/// published vectors), bad input that fails its case and lets the others run, JUnit XML a
/// report viewer reads, `--json`, and nothing written outside its temporary folders.
@Suite(.historiesVerified) struct TestCommandTests {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    let folder = TemporaryFolder("cairn-test-command")

    /// A scenario file in the temporary folder, using the life-in-uk set copied beside it.
    func scenario(_ name: String, _ text: String) throws -> String {
        let set = folder.path + "/set"
        if !FileManager.default.fileExists(atPath: set) {
            try FileManager.default.copyItem(atPath: Self.checkout + "/schema/life-in-uk", toPath: set)
        }
        let file = folder.path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    func cairn(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
        if let directory {
            return try runBounded("/usr/bin/env", ["-C", directory, CLI.executable] + arguments, environment: environment, limit: 300)
        }
        return try runBounded(CLI.executable, arguments, environment: environment, limit: 300)
    }

    static let book = #"{"schemaVersion":1,"bookId":"b1","updatedAt":10,"sections":{"s1":{"completed":true,"updatedAt":10}}}"#

    @Test func theExampleScenariosPass() throws {
        // The seed app's scenarios and the music-practice app's (its own set, by path).
        let result = try cairn(["test", Self.checkout + "/examples"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("PASS ") }.count == 10, "\(result.stdout)")
        #expect(lines.contains("PASS the same minutes added on two devices at once count twice"), "\(result.stdout)")
        #expect(lines.last == "10 passed, 0 failed")
    }

    @Test func aFailingScenarioShowsItsStepAndTheDiff() throws {
        let file = try scenario(
            "laptop.json",
            #"""
            {"name": "the laptop sees the mark", "schema": "./set", "devices": ["phone", "laptop"], "steps": [
              {"device": "phone", "put": "users/u1/books/b1", "value": \#(Self.book)},
              {"device": "phone", "sync": true},
              {"device": "laptop", "sync": true},
              {"expect": "contains", "device": "laptop", "path": "users/u1/books/b1", "value": {"sections": {"s1": {"completed": false}}, "completedCount": 1}}
            ]}
            """#)
        let result = try cairn(["test", file])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                FAIL the laptop sees the mark
                  \(file): /steps/3: step 3 (expect users/u1/books/b1 on laptop contains): users/u1/books/b1 on laptop does not contain what was expected
                    /sections/s1/completed: expected false, found true
                0 passed, 1 failed

                """, "\(result.stdout)")
    }

    @Test func theGoldenCasesPassThroughTheTool() throws {
        let golden = Self.checkout + "/Tests/CairnMergeTests/Golden"
        let cases = try FileManager.default.contentsOfDirectory(atPath: golden).filter { !$0.contains(".") }
        #expect(cases.count >= 20)
        let result = try cairn(["test", golden])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.hasSuffix("\(cases.count) passed, 0 failed\n"), "\(result.stdout)")
        for name in cases { #expect(result.stdout.contains("PASS \(name)\n"), "\(name)") }

        // A vector changed by one value fails, with the pointer of the value.
        let changed = folder.path + "/changed"
        try FileManager.default.copyItem(atPath: golden + "/union-flagged-questions", toPath: changed)
        let expected = try JSONParser().parse([UInt8](Data(contentsOf: URL(fileURLWithPath: changed + "/expected.json"))))
        guard case .object(var fields) = expected else {
            Issue.record("expected.json is an object")
            return
        }
        fields["flaggedQuestions"] = .array([.string("q0")])
        try Data(JSONValue.object(fields).canonicalBytes()).write(to: URL(fileURLWithPath: changed + "/expected.json"))
        let failed = try cairn(["test", changed])
        #expect(failed.status == 1)
        #expect(
            failed.stdout.contains(
                "FAIL changed\n  \(changed): the policy's merge, ours as ours: the merged document is not expected.json\n    /flaggedQuestions"
            ), "\(failed.stdout)")
    }

    @Test func badInputFailsItsCaseAndTheOthersRun() throws {
        let broken = try scenario("broken.json", #"{"schema": "./set", "devices": ["phone"], "steps": ["#)
        let wrongWord = try scenario(
            "word.json",
            #"""
            [{"name": "good", "schema": "./set", "devices": ["phone"], "steps": [{"device": "phone", "put": "users/u1/books/b1", "value": \#(Self.book)}]},
             {"name": "misspelt", "schema": "./set", "devices": ["phone"], "steps": [{"device": "phone", "sync": true}, {"expect": "equal", "device": "phone", "path": "users/u1/books/b1", "value": {}}]},
             {"name": "unknown key", "schema": "./set", "devices": ["phone"], "steps": [{"device": "phone", "put": "users/u1/books/b1", "valu": {}}]},
             {"name": "other device", "schema": "./set", "devices": ["phone"], "steps": [{"device": "tablet", "sync": true}]},
             {"name": "refused by its schema", "schema": "./set", "devices": ["phone"], "steps": [{"device": "phone", "put": "users/u1/books/b1", "value": {"bookId": "b1"}}]},
             {"name": "no such set", "schema": "./nowhere", "devices": ["phone"], "steps": []}]
            """#)
        let result = try cairn(["test", broken, wrongWord])
        #expect(result.status == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.last == "1 passed, 6 failed", "\(result.stdout)")
        #expect(lines.contains("PASS good"))
        #expect(lines.contains { $0.hasPrefix("  \(broken): not valid JSON") }, "\(result.stdout)")
        #expect(
            lines.contains(
                #"  \#(wrongWord): /1/steps/1/expect: unknown expectation "equal"; use equals, contains, absent, sameTree, conflicts, refused, verified"#
            ), "\(result.stdout)")
        #expect(
            lines.contains(#"  \#(wrongWord): /2/steps/0: "value" is missing"#)
                || lines.contains { $0.contains(#"/2/steps/0/valu: unknown key "valu""#) }, "\(result.stdout)")
        #expect(lines.contains(#"  \#(wrongWord): /3/steps/0/device: unknown device "tablet"; the devices are phone"#), "\(result.stdout)")
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "  \(wrongWord): /4/steps/0/value: step 0 (put users/u1/books/b1 on phone): refused: users/u1/books/b1 breaks its schema"
                )
            }, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("  \(wrongWord): /5/schema: ") }, "\(result.stdout)")
        // Each failure is one line (no differences for bad input).
        #expect(lines.filter { $0.hasPrefix("    ") }.isEmpty, "\(result.stdout)")
        let missing = try cairn(["test", folder.path + "/none.json"])
        #expect(missing.status == 1 && missing.stdout.contains("no such file or folder"), "\(missing.stdout)")
    }

    @Test func aSyncTheServerRefusesIsARefusalThatKeepsItsCheckpoint() throws {
        // An app's set whose union the remote caps at two tags.
        let set = folder.path + "/capped"
        try FileManager.default.createDirectory(atPath: set, withIntermediateDirectories: true)
        try Data(
            #"{"x-cairn": {"path": "users/{uid}/notes/{noteId}"}, "type": "object", "properties": {"tags": {"type": "array", "items": {"enum": ["a", "b", "c"]}, "maxItems": 2, "x-merge": "union"}}}"#
                .utf8
        )
        .write(to: URL(fileURLWithPath: set + "/note.schema.json"))
        let file = folder.path + "/refused.json"
        try Data(
            #"""
            {"schema": "./capped", "devices": ["phone", "laptop"], "steps": [
              {"device": "phone", "put": "users/u1/notes/n1", "value": {"tags": ["a"]}},
              {"device": "phone", "sync": true}, {"device": "laptop", "sync": true},
              {"device": "phone", "put": "users/u1/notes/n1", "value": {"tags": ["a", "b"]}},
              {"device": "phone", "sync": true},
              {"device": "laptop", "put": "users/u1/notes/n1", "value": {"tags": ["a", "c"]}},
              {"expect": "refused", "step": {"device": "laptop", "sync": true}, "code": "refused", "message": "maxItems"},
              {"expect": "equals", "device": "laptop", "path": "users/u1/notes/n1", "value": {"tags": ["a", "c"]}},
              {"expect": "sameTree", "devices": ["phone"], "remote": true}]}
            """#.utf8
        ).write(to: URL(fileURLWithPath: file))
        let result = try cairn(["test", file])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout == "PASS refused\n1 passed, 0 failed\n", "\(result.stdout)")
    }

    @Test func junitXMLReadsAsCIViewersReadIt() throws {
        let file = try scenario(
            "junit.json",
            #"""
            [{"name": "passes", "schema": "./set", "devices": ["phone"], "steps": [{"expect": "absent", "device": "phone", "path": "users/u1/books/b1"}]},
             {"name": "fails <&\"'> \u0001 here", "schema": "./set", "devices": ["phone"], "steps": [
               {"device": "phone", "put": "users/u1/books/b1", "value": \#(Self.book)},
               {"expect": "equals", "device": "phone", "path": "users/u1/books/b1", "value": {"bookId": "<&>"}}]}]
            """#)
        let report = folder.path + "/report.xml"
        // Run from the file's folder: the class name is the path as given, `junit`.
        let result = try cairn(["test", "junit.json", "--junit", report], in: folder.path)
        #expect(result.status == 1)
        // Python's parser, as report tools use: the schema's elements and attributes.
        let check = #"""
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            assert root.tag == "testsuites", root.tag
            assert root.get("tests") == "2" and root.get("failures") == "1" and root.get("errors") == "0", root.attrib
            float(root.get("time"))
            suites = root.findall("testsuite")
            assert len(suites) == 1
            suite = suites[0]
            for key in ["name", "tests", "failures", "errors", "skipped", "time", "timestamp"]:
                assert suite.get(key) is not None, key
            cases = suite.findall("testcase")
            assert [c.get("name") for c in cases] == ["passes", "fails <&\"'> \ufffd here"], [c.get("name") for c in cases]
            for c in cases:
                # The file's path, folders joined by dots: viewers show the file's name as the class.
                assert c.get("classname") == "junit", c.get("classname")
                assert float(c.get("time")) >= 0
            assert cases[0].find("failure") is None
            failure = cases[1].find("failure")
            assert "step 1 (expect users/u1/books/b1 on phone equals)" in failure.get("message"), failure.get("message")
            assert "\n" not in failure.get("message")
            assert '/bookId: expected "<&>", found "b1"' in failure.text, failure.text
            print("ok")
            """#
        let parsed = try runProcess("/usr/bin/python3", ["-c", check, report])
        #expect(parsed.stdout == "ok\n", "\(parsed.stdout)\(parsed.stderr)")
        // junitparser (PyPI), a reader CI report tools are built on: the totals, each case in
        // its suite, the failure's message and text.
        let clients = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/git-clients.sh").path
        let read = try runProcess("/bin/bash", [clients, "run", "junitparser", report, "read"])
        #expect(read.status == 0, "\(read.stderr)")
        let summary = try JSONParser().parse(read.stdout)
        #expect(
            summary.field("tests") == .integer(2) && summary.field("failures") == .integer(1) && summary.field("errors") == .integer(0),
            "\(read.stdout)")
        guard case .array(let readCases)? = summary.field("cases"), readCases.count == 2 else {
            Issue.record("junitparser read no cases: \(read.stdout)")
            return
        }
        #expect(readCases[0].field("failure") == .null)
        guard case .string(let className)? = readCases[0].field("classname") else {
            Issue.record("junitparser read no class name: \(read.stdout)")
            return
        }
        #expect(className == "junit", "\(className)")
        let readFailure = readCases[1].field("failure")
        guard case .string(let message)? = readFailure?.field("message"), case .string(let text)? = readFailure?.field("text") else {
            Issue.record("junitparser read no failure: \(read.stdout)")
            return
        }
        #expect(message.contains("step 1 (expect users/u1/books/b1 on phone equals)"), "\(message)")
        #expect(text.contains(#"/bookId: expected "<&>", found "b1""#), "\(text)")
        // A report that cannot be written is one line and a failure.
        let unwritable = try cairn(["test", file, "--junit", folder.path + "/no/such/folder/report.xml"])
        #expect(unwritable.status == 1 && unwritable.stderr.hasPrefix("cairn: cannot write the JUnit report"), "\(unwritable.stderr)")
    }

    @Test func jsonPrintsOneObject() throws {
        let file = try scenario(
            "json.json",
            #"""
            [{"name": "passes", "schema": "./set", "devices": ["phone"], "steps": [{"expect": "absent", "device": "phone", "path": "users/u1/books/b1"}]},
             {"name": "fails", "schema": "./set", "devices": ["phone"], "steps": [{"expect": "contains", "device": "phone", "path": "users/u1/books/b1", "value": {"a": 1}}]}]
            """#)
        let result = try cairn(["test", "--json", file])
        #expect(result.status == 1)
        let report = try JSONParser().parse(result.stdout)
        #expect(report.field("passed") == .integer(1) && report.field("failed") == .integer(1) && report.field("total") == .integer(2))
        guard case .array(let cases)? = report.field("cases"), cases.count == 2 else {
            Issue.record("cases: \(result.stdout)")
            return
        }
        #expect(
            cases[0].field("name") == .string("passes") && cases[0].field("passed") == .bool(true) && cases[0].field("failure") == .null)
        #expect(cases[0].field("file") == .string(file) && cases[0].field("kind") == .string("scenario"))
        let failure = cases[1].field("failure")
        #expect(failure?.field("pointer") == .string("/1/steps/0"))
        #expect(failure?.field("step") == .integer(0))
        #expect(failure?.field("message") == .string("users/u1/books/b1 is absent on phone"))
        #expect(failure?.field("differences") == .array([.object(["pointer": .string(""), "expected": .object(["a": .integer(1)])])]))
        // Every field is present: a failure that knows no pointer or step says null.
        let missing = try cairn(["test", "--json", folder.path + "/none.json"])
        #expect(missing.status == 1)
        let nothing = try JSONParser().parse(missing.stdout).field("cases")
        guard case .array(let only)? = nothing, let failed = only.first?.field("failure") else {
            Issue.record("cases: \(missing.stdout)")
            return
        }
        #expect(
            failed.field("pointer") == .null && failed.field("step") == .null && failed.field("stepDescription") == .null,
            "\(missing.stdout)")
        #expect(failed.field("differences") == .array([]))
    }

    @Test func nothingOutsideItsTemporaryFoldersIsWritten() throws {
        let file = try scenario(
            "quiet.json",
            #"""
            {"schema": "./set", "devices": ["phone", "laptop"], "steps": [
              {"device": "phone", "put": "users/u1/books/b1", "value": \#(Self.book)},
              {"device": "phone", "sync": true}, {"device": "laptop", "sync": true},
              {"expect": "sameTree"}]}
            """#)
        func listing(_ path: String) -> [String] {
            (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).sorted()
        }
        let before = listing(folder.path)
        let contents = try Data(contentsOf: URL(fileURLWithPath: file))
        let temporary = TemporaryFolder("cairn-test-tmp")
        let directory = TemporaryFolder("cairn-test-cwd")
        let result = try cairn(["test", file], in: directory.path, environment: ["TMPDIR": temporary.path, "HOME": directory.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("PASS quiet"))
        #expect(listing(folder.path) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == contents)
        #expect(listing(directory.path).isEmpty, "\(listing(directory.path))")
        #expect(listing(temporary.path).isEmpty, "the stories' folders are removed: \(listing(temporary.path))")
    }
}
