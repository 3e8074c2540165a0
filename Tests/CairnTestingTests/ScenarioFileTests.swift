import CairnCore
import CairnMerge
import CairnTestSupport
import CairnTesting
import CairnToolTestSupport
import Foundation
import Testing

/// Scenario files and golden cases run from Swift, as an app's tests would run its own: the
/// library finds a set by name in a `schema/` folder beside the file or above it.
@Suite(.historiesVerified) struct ScenarioFileTests {
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
        try Data(
            #"""
            {"schema": "\#(Self.checkout)/schema/life-in-uk", "devices": ["phone"], "steps": [
              {"device": "phone", "put": "users/u1/progress/exam", "value": {"schemaVersion": 1}},
              {"expect": "equals", "device": "phone", "path": "users/u1/progress/exam", "value": {"schemaVersion": 2}}
            ]}
            """#.utf8
        ).write(to: URL(fileURLWithPath: file))
        let entries = Scenario.read(file: file)
        #expect(entries.map(\.name) == ["wrong"])
        let failure = #expect(throws: StoryFailure.self) { try entries[0].scenario.get().run() }
        #expect(
            failure?.summary
                == "\(file): /steps/1: step 1 (expect users/u1/progress/exam on phone equals): users/u1/progress/exam on phone differs")
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

    /// A copy of the golden case `name` in `folder` (as `copy`, else under its name), with
    /// `changes` written over its files.
    func golden(_ name: String, in folder: TemporaryFolder, as copy: String? = nil, _ changes: [String: String] = [:]) throws -> String {
        let copy = folder.path + "/" + (copy ?? name)
        try FileManager.default.copyItem(atPath: Self.checkout + "/Tests/CairnMergeTests/Golden/" + name, toPath: copy)
        for (file, text) in changes {
            try Data(text.utf8).write(to: URL(fileURLWithPath: copy + "/" + file))
        }
        return copy
    }

    @Test func aGoldenInputItsSchemaRefusesNamesTheFileAndThePlaceInIt() throws {
        let folder = TemporaryFolder("cairn-golden")
        // The three inputs merge as expected, and the base breaks the schema's maximum.
        let schema = #"{"type":"object","properties":{"count":{"type":"integer","maximum":5,"x-merge":"max"}}}"#
        let base = try golden(
            "union-flagged-questions", in: folder,
            [
                "schema.json": schema, "base.json": #"{"count":9}"#, "ours.json": #"{"count":9}"#, "theirs.json": #"{"count":9}"#,
                "expected.json": #"{"count":9}"#, "expected-conflicts.json": "[]",
            ])
        let refused = #expect(throws: StoryFailure.self) { try GoldenCase(folder: base).run() }
        #expect(refused?.file == base + "/base.json")
        #expect(refused?.pointer == "/count")
        #expect(
            refused?.summary.hasPrefix(
                "\(base)/base.json: /count: stores, ours pushing first, step 0: put users/u1/golden/case on ours: refused: ") == true,
            "\(refused?.summary ?? "")")
        // A side the schema refuses is named by its file; a whole document, at the pointer "".
        try FileManager.default.removeItem(atPath: base)
        let ours = try golden(
            "union-flagged-questions", in: folder,
            [
                "schema.json": schema, "base.json": #"{"count":1}"#, "ours.json": #"{"count":9}"#, "theirs.json": #"{"count":1}"#,
                "expected.json": #"{"count":9}"#, "expected-conflicts.json": "[]",
            ])
        let side = #expect(throws: StoryFailure.self) { try GoldenCase(folder: ours).run() }
        #expect(side?.file == ours + "/ours.json" && side?.pointer == "/count", "\(side?.summary ?? "")")
        try FileManager.default.removeItem(atPath: ours)
        let whole = try golden(
            "union-flagged-questions", in: folder,
            [
                "schema.json": #"{"type":"object","required":["id"]}"#, "base.json": #"{"n":1}"#,
                "ours.json": #"{"n":1}"#, "theirs.json": #"{"n":1}"#, "expected.json": #"{"n":1}"#, "expected-conflicts.json": "[]",
            ])
        let missing = #expect(throws: StoryFailure.self) { try GoldenCase(folder: whole).run() }
        #expect(missing?.file == whole + "/base.json" && missing?.pointer == "", "\(missing?.summary ?? "")")
        #expect(missing?.summary.hasPrefix("\(whole)/base.json: /: ") == true, "\(missing?.summary ?? "")")
    }

    @Test func aGoldenCaseListsItsRecordsInTheirCanonicalOrder() throws {
        let folder = TemporaryFolder("cairn-golden")
        let name = "max-min-book-progress"
        let file = Self.checkout + "/Tests/CairnMergeTests/Golden/\(name)/expected-conflicts.json"
        guard case .array(let records) = try JSONParser().parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))) else {
            Issue.record("expected-conflicts.json holds an array")
            return
        }
        #expect(records.count == 3)
        try GoldenCase(folder: try golden(name, in: folder)).run()
        // The same records, the first two swapped: the pure merge finds them out of order.
        let swapped = JSONValue.array([records[1], records[0], records[2]]).canonicalText
        let copy = try golden(name, in: folder, as: "swapped", ["expected-conflicts.json": swapped])
        let failure = #expect(throws: StoryFailure.self) { try GoldenCase(folder: copy).run() }
        #expect(failure?.summary == "\(copy): the policy's merge, ours as ours: the conflict records are not expected-conflicts.json")
        #expect(
            failure?.differences.map(\.pointer) == ["/0/kept", "/0/pointer", "/0/replaced", "/1/kept", "/1/pointer", "/1/replaced"],
            "\(failure?.description ?? "")")
    }

    @Test func aRefusalLookingForAnEmptyMessageIsRefusedAsMatchingAny() throws {
        let folder = TemporaryFolder("cairn-scenario")
        let file = folder.path + "/empty-message.json"
        try Data(
            #"""
            {"schema": "\#(Self.checkout)/schema/life-in-uk", "devices": ["phone"], "steps": [
              {"expect": "refused", "message": "", "step": {"device": "phone", "put": "users/u1/progress/exam", "value": {"schemaVersion": "one"}}}
            ]}
            """#.utf8
        ).write(to: URL(fileURLWithPath: file))
        let entries = Scenario.read(file: file)
        let failure = #expect(throws: StoryFailure.self) { try entries[0].scenario.get().run() }
        #expect(failure?.pointer == "/steps/0/message", "\(failure?.summary ?? "")")
        #expect(failure?.summary.contains("an empty one would match any, so leave it out") == true, "\(failure?.summary ?? "")")
        // With a part of the message, the same refusal is what the scenario expects.
        try Data(
            #"""
            {"schema": "\#(Self.checkout)/schema/life-in-uk", "devices": ["phone"], "steps": [
              {"expect": "refused", "message": "schemaVersion", "step": {"device": "phone", "put": "users/u1/progress/exam", "value": {"schemaVersion": "one"}}}
            ]}
            """#.utf8
        ).write(to: URL(fileURLWithPath: file))
        try Scenario.read(file: file)[0].scenario.get().run()
    }

    @Test func aSetThatCannotMakeAStorePointsAtTheScenariosSchema() throws {
        let folder = TemporaryFolder("cairn-scenario")
        try FileManager.default.createDirectory(atPath: folder.path + "/broken", withIntermediateDirectories: true)
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: folder.path + "/broken/note.schema.json"))
        let file = folder.path + "/broken.json"
        try Data(#"[{"schema": "./broken", "devices": ["phone"], "steps": []}]"#.utf8).write(to: URL(fileURLWithPath: file))
        let failure = #expect(throws: StoryFailure.self) { try Scenario.read(file: file)[0].scenario.get().run() }
        #expect(failure?.pointer == "/0/schema")
        #expect(failure?.summary.hasPrefix("\(file): /0/schema: the devices cannot be set up: ") == true, "\(failure?.summary ?? "")")
    }

    @Test func aSetsFolderIsReadAsTheToolReadsIt() throws {
        let folder = TemporaryFolder("cairn-scenario")
        let app = folder.path + "/my-app"
        try FileManager.default.createDirectory(atPath: app + "/scenarios", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path + "/empty", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.checkout + "/schema/life-in-uk/book.schema.json", toPath: app + "/book.schema.json")
        let resolver = SchemaSetResolver.besideFile
        // `.` and `..` are resolved: the set is named after its folder.
        #expect(try resolver.set(".", app + "/book.json").name == "my-app")
        #expect(try resolver.set("..", app + "/scenarios/books.json").name == "my-app")
        #expect(try resolver.set("../../my-app/", app + "/scenarios/books.json").files.keys.sorted() == ["book.schema.json"])
        // A missing folder and a folder without schemas are told apart, as `--schema` tells them.
        let missing = #expect(throws: CairnError.self) { try resolver.set("./nowhere", app + "/books.json") }
        #expect(missing?.code == .notFound)
        #expect(
            missing?.message
                == "there is no folder ./nowhere; a schema set is given by its name (life-in-uk, …) or as the path of a folder of *.schema.json files"
        )
        let empty = #expect(throws: CairnError.self) { try resolver.set("../empty", app + "/books.json") }
        #expect(empty?.code == .invalidInput)
        #expect(
            empty?.message == "../empty holds no *.schema.json file; a schema set is a folder of JSON Schemas, one per kind of document")
        // A name: a schema/ folder above the file, else a set Cairn ships.
        #expect(try resolver.set("life-in-uk", folder.path + "/x.json").files.keys.contains("book.schema.json"))
        #expect(
            SchemaSetFolder.isPath("./a") && SchemaSetFolder.isPath("a/b") && SchemaSetFolder.isPath("..")
                && !SchemaSetFolder.isPath("life-in-uk"))
    }
}
