import CairnMerge
import CairnSchemaSets
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// An app team brings its own schema set as a folder outside the checkout: `--schema` takes
/// its path, `cairn schema check` lints it, `cairn schema show` prints what it says.
@Suite(.historiesVerified) struct BringYourOwnSetTests {
    let cli = CLI()

    /// A folder `name` under the test's scratch folder holding `files` (name → text).
    func folder(_ name: String, _ files: [String: String]) throws -> String {
        let path = cli.scratch(name)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (file, text) in files { try text.write(toFile: path + "/" + file, atomically: true, encoding: .utf8) }
        return path
    }

    static let practice = [
        "session.schema.json": #"""
        {"x-cairn": {"path": "users/{uid}/sessions/{sessionId}", "checkpoint": "immediate"},
         "type": "object", "x-merge": "append-only", "required": ["minutes"],
         "properties": {"minutes": {"type": "integer", "minimum": 1}}}
        """#,
        "piece.schema.json": #"""
        {"x-cairn": {"path": "users/{uid}/pieces/{pieceId}"},
         "type": "object",
         "properties": {
           "plays": {"type": "integer", "x-merge": "counter"},
           "bars": {"type": "object", "x-merge": {"entries": "latest", "by": "at"},
                    "additionalProperties": {"type": "object", "properties": {"ok": {"type": "boolean"}, "at": {"type": "integer"}}}},
           "mastered": {"type": "integer", "x-merge": {"derive": {"count": "bars", "where": {"ok": true}}}}}}
        """#,
        "README.md": "Not a schema: ignored.",
    ]

    @Test func initTakesTheFolderOfAnAppsOwnSetAndNamesTheSetAfterIt() throws {
        let set = try folder("music-practice", Self.practice)
        let created = try cli("init", "u1", "--schema", set)
        #expect(created.status == 0, "\(created.stderr)")
        let identity = try String(contentsOfFile: cli.home + "/u1/.cairn/store.json", encoding: .utf8)
        #expect(identity.contains(#""schemaSet": "music-practice""#))
        let files = try cli.git("u1", "ls-files").stdout
        #expect(files.contains(".cairn/schema/piece.schema.json"))
        #expect(!files.contains("README.md"))
        // The set is in force: a session of no minutes is refused, a piece's count is derived.
        #expect(try cli("put", "users/u1/sessions/s1", input: #"{"minutes": 0}"#).status == 1)
        #expect(try cli("put", "users/u1/pieces/p1", input: #"{"plays": 1, "bars": {"b1": {"ok": true, "at": 5}}}"#).status == 0)
        #expect(try cli("get", "users/u1/pieces/p1").stdout.contains(#""mastered": 1"#))
        // A trailing slash names the same set.
        #expect(try cli("init", "u2", "--schema", set + "/").status == 0)
        #expect(try String(contentsOfFile: cli.home + "/u2/.cairn/store.json", encoding: .utf8).contains(#""schemaSet": "music-practice""#))
    }

    @Test func aFolderThatIsNotThereOrHoldsNoSchemaIsOneLineAndNothingIsCreated() throws {
        let missing = try cli("init", "u1", "--schema", cli.scratch("no-such-folder"))
        #expect(missing.status == 1)
        #expect(
            missing.stderr
                == "cairn: there is no folder \(cli.scratch("no-such-folder")); a schema set is given by its name (life-in-uk, …) or as the path of a folder of *.schema.json files\n"
        )
        let empty = try folder("empty", ["README.md": "nothing here"])
        let none = try cli("init", "u1", "--schema", empty)
        #expect(none.status == 1)
        #expect(
            none.stderr
                == "cairn: \(empty) holds no *.schema.json file; a schema set is a folder of JSON Schemas, one per kind of document\n")
        let relative = try cli("init", "u1", "--schema", "./no-such-set")
        #expect(relative.status == 1)
        #expect(relative.stderr.hasPrefix("cairn: there is no folder ./no-such-set; "))
        #expect(!FileManager.default.fileExists(atPath: cli.home + "/u1"))
    }

    @Test func checkPassesAShippedSetAndAGoodFolderWithASummary() throws {
        let shipped = try cli("schema", "check", "life-in-uk")
        #expect(shipped.status == 0, "\(shipped.stdout)\(shipped.stderr)")
        #expect(shipped.stdout == "life-in-uk: 5 kinds of document, no findings.\n")
        let own = try cli("schema", "check", try folder("music-practice", Self.practice))
        #expect(own.status == 0, "\(own.stdout)")
        #expect(own.stdout == "music-practice: 2 kinds of document, no findings.\n")
    }

    @Test func checkPrintsOneLinePerFindingAndExitsWithStatusOne() throws {
        var files = Self.practice
        files["piece.schema.json"] = files["piece.schema.json"]!.replacingOccurrences(
            of: #""x-merge": "counter""#, with: #""x-merge": "conter""#)
        files["other.schema.json"] = #"{"x-cairn": {"path": "users/{uid}/pieces/{id}"}, "type": "object", "minimun": 1}"#
        let set = try folder("bad-practice", files)
        let result = try cli("schema", "check", set)
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                \(set)/other.schema.json: /minimun: unclaimed-keyword: "minimun" is not a keyword Cairn's validator checks, so documents are not held to it; did you mean "minimum"?
                \(set)/piece.schema.json: /properties/plays/x-merge: merge-word: unknown x-merge word "conter"; did you mean "counter"?
                \(set)/piece.schema.json: /x-cairn/path: path-overlap: users/{uid}/pieces/{pieceId} and other.schema.json's users/{uid}/pieces/{id} both match users/uid/pieces/id, equally specifically; name a collection or an ID literally in one of them

                """)
        #expect(result.stderr == "cairn: 3 findings in the schema set bad-practice; fix them and run cairn schema check again\n")
        // init refuses what loading refuses, and creates nothing.
        let refused = try cli("init", "u1", "--schema", set)
        #expect(refused.status == 1)
        #expect(!FileManager.default.fileExists(atPath: cli.home + "/u1"))
    }

    @Test func showPrintsEachKindWithItsPolicyTree() throws {
        let result = try cli("schema", "show", try folder("music-practice", Self.practice))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout == """
                music-practice: 2 kinds of document, version 1

                users/{uid}/pieces/{pieceId}
                  file: piece.schema.json
                  checkpoint: debounce 10 s (the default)
                  retention: keep all
                  ids: any valid ID
                  policy: fields
                    bars: entries latest by at
                    plays: counter
                  derived:
                    mastered: how many entries of bars where ok is true

                users/{uid}/sessions/{sessionId}
                  file: session.schema.json
                  checkpoint: immediate
                  retention: keep all
                  ids: any valid ID
                  policy: append-only

                """)
    }

    @Test func showAsJSONIsOneObjectWithAKindPerPath() throws {
        let result = try cli("schema", "show", "life-in-uk", "--json")
        #expect(result.status == 0, "\(result.stderr)")
        let value = try JSONParser().parse(result.stdout)
        #expect(value.field("name") == .string("life-in-uk"))
        guard case .array(let kinds)? = value.field("kinds") else {
            Issue.record("no kinds in \(result.stdout)")
            return
        }
        #expect(
            kinds.compactMap { $0.field("path") }
                == [
                    "users/{uid}", "users/{uid}/books/{bookId}", "users/{uid}/examAttempts/{attemptId}",
                    "users/{uid}/examInProgress/{examId}", "users/{uid}/progress/exam",
                ].map { JSONValue.string($0) })
        let book = kinds[1]
        #expect(book.field("checkpoint") == .object(["debounce": .integer(5)]))
        #expect(book.field("policy")?.field("fields")?.field("sections")?.field("policy") == .string("entries latest by updatedAt"))
        #expect(
            book.field("derived")?.field("completedCount")?.field("derive")
                == .object(["count": .string("sections"), "where": .object(["completed": .bool(true)])]))
    }

    @Test func checkAndShowRefuseAnUnknownSetInOneLine() throws {
        for command in ["check", "show"] {
            let result = try cli("schema", command, "no-such-app")
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("cairn: there is no schema set \"no-such-app\" (known: "))
            #expect(result.stderr.split(separator: "\n").count == 1)
        }
    }
}

/// The shipped sets are package resources: an app's tests (these) and programs built from
/// the package read them from any folder.
@Suite(.historiesVerified) struct ShippedSetsAsResourcesTests {
    @Test func everySetOfTheSchemaFolderIsAResource() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: shippedSchemaRoot.path).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: shippedSchemaRoot.appendingPathComponent(name).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }.sorted()
        #expect(!folders.isEmpty)
        #expect(SchemaSets.names == folders)
        for name in folders {
            #expect(SchemaSets.named(name) == (try shippedSchemaSet(name)), "\(name)")
        }
        #expect(SchemaSets.named("no-such-app") == nil)
        #expect(SchemaSets.named("../schema") == nil)
    }

    @Test func theToolFindsAShippedSetWhenNoFolderHoldsIt() throws {
        // Alone in a folder of its own with its resources beside it, as SwiftPM builds it, the
        // tool finds no schema/ above it, yet knows the shipped sets.
        let cli = CLI()
        let bin = cli.scratch("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CLI.executable, toPath: bin + "/cairn")
        let resources = URL(fileURLWithPath: CLI.executable).deletingLastPathComponent().appendingPathComponent(
            "Cairn_CairnSchemaSets.resources"
        ).path
        try FileManager.default.copyItem(atPath: resources, toPath: bin + "/Cairn_CairnSchemaSets.resources")
        let result = try runProcess(bin + "/cairn", ["--home", cli.home, "init", "u1", "--schema", "oybc"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: cli.home + "/u1/.cairn/schema/board.schema.json"))
        // Without them, an unknown name is still one line, not a crash.
        try FileManager.default.removeItem(atPath: bin + "/Cairn_CairnSchemaSets.resources")
        let missing = try runProcess(bin + "/cairn", ["--home", cli.home, "init", "u2", "--schema", "oybc"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("cairn: there is no schema set \"oybc\" ("))
    }
}
