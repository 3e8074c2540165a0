import CairnMerge
import CairnTestSupport
import CairnTesting
import Foundation
import Testing

/// Scenario files and golden cases run from Swift, as an app's tests would run its own: the
/// library finds a set by name in a `schema/` folder beside the file or above it.
@Suite struct ScenarioFileTests {
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func theExampleScenariosRunFromSwift() throws {
        let folder = Self.checkout + "/examples/life-in-uk/scenarios"
        var names: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder).sorted() where file.hasSuffix(".json") {
            for entry in Scenario.read(file: folder + "/" + file) {
                try entry.scenario.get().run()
                names.append(entry.name)
            }
        }
        #expect(names.count == 4, "\(names)")
    }

    @Test func aWrongExpectationInAFileNamesFileAndPointer() throws {
        let folder = TemporaryFolder("cairn-scenario")
        let file = folder.path + "/wrong.json"
        try Data(#"""
            {"schema": "\#(Self.checkout)/schema/life-in-uk", "devices": ["phone"], "steps": [
              {"device": "phone", "put": "users/u1/progress/exam", "value": {"schemaVersion": 1}},
              {"expect": "equals", "device": "phone", "path": "users/u1/progress/exam", "value": {"schemaVersion": 2}}
            ]}
            """#.utf8).write(to: URL(fileURLWithPath: file))
        let entries = Scenario.read(file: file)
        #expect(entries.map(\.name) == ["wrong"])
        let failure = #expect(throws: StoryFailure.self) { try entries[0].scenario.get().run() }
        #expect(failure?.summary == "\(file): /steps/1: step 1 (expect users/u1/progress/exam on phone equals): users/u1/progress/exam on phone differs")
        #expect(failure?.differences.map(\.description) == ["/schemaVersion: expected 2, found 1"])
    }

    @Test func aGoldenCaseRunsFourWays() throws {
        let golden = GoldenCase(folder: Self.checkout + "/Tests/CairnMergeTests/Golden/counter-word-progress-no-increment-lost")
        try golden.run()
        // The same case with the increments lost fails in the pure merge first.
        let folder = TemporaryFolder("cairn-golden")
        let copy = folder.path + "/lost"
        try FileManager.default.copyItem(atPath: golden.folder, toPath: copy)
        try FileManager.default.removeItem(atPath: copy + "/expected.json")
        let failure = #expect(throws: StoryFailure.self) { try GoldenCase(folder: copy).run() }
        #expect(failure?.summary == "\(copy): the policy's merge, ours as ours: the merged document is not expected.json")
        #expect(failure?.differences.count == 1 && failure?.differences.first?.expected == nil)
    }
}
