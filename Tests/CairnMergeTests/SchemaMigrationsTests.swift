import CairnMerge
import CairnTestSupport
import Testing

/// Declared migrations, retention and checkpoint policies: what the set files say, read and
/// applied.
@Suite struct SchemaMigrationsTests {
    func path(_ text: String) throws -> DocumentPath { try DocumentPath(text) }

    let flatToNested = """
        {"schemaVersion": 3, "migrations": [
          {"from": 1, "to": 2, "description": "nest", "steps": [
            {"move": {"from": "users/{uid}/tasks/{taskId}", "to": "users/{uid}/profiles/{profileId}/habits/{taskId}"}}]},
          {"from": 2, "to": 3, "steps": [
            {"rename": {"in": "users/{uid}/profiles/{p}/habits/{h}", "field": "/title", "to": "/name"}},
            {"remove": {"in": "users/{uid}/profiles/{p}/habits/{h}", "field": "/legacy"}},
            {"set": {"in": "users/{uid}/profiles/{p}/habits/{h}", "field": "/meta/schemaVersion", "value": 3}}]}]}
        """

    @Test func stepsMoveRenameRemoveAndSetInOrder() throws {
        let migrations = try SchemaMigrations(json: Array(flatToNested.utf8))
        #expect(migrations.version == 3)
        let documents: [DocumentPath: JSONValue] = [
            try path("users/u1/tasks/t1"): .object(["profileId": .string("+447700900123"), "title": .string("Walk"), "legacy": .bool(true)]
            ),
            try path("users/u1/profiles/+447700900123"): .object(["name": .string("Gran")]),
        ]
        let fromOne = try migrations.migrate(documents, from: 1)
        #expect(fromOne.count == 2)
        #expect(
            fromOne[try path("users/u1/profiles/+447700900123/habits/t1")]
                == .object([
                    "profileId": .string("+447700900123"), "name": .string("Walk"), "meta": .object(["schemaVersion": .integer(3)]),
                ]))
        #expect(fromOne[try path("users/u1/profiles/+447700900123")] == .object(["name": .string("Gran")]))
        // From version 2 only the second migration runs: nothing to move.
        let fromTwo = try migrations.migrate(documents, from: 2)
        #expect(fromTwo[try path("users/u1/tasks/t1")] != nil)
        #expect(try migrations.migrate(documents, from: 3) == documents)
    }

    @Test func aMoveThatCannotBePlacedIsRefused() throws {
        let migrations = try SchemaMigrations(json: Array(flatToNested.utf8))
        let missing: [DocumentPath: JSONValue] = [try path("users/u1/tasks/t1"): .object(["title": .string("Walk")])]
        #expect(throws: SchemaSetError.self) { try migrations.migrate(missing, from: 1) }
        let clash: [DocumentPath: JSONValue] = [
            try path("users/u1/tasks/t1"): .object(["profileId": .string("+447700900123")]),
            try path("users/u1/profiles/+447700900123/habits/t1"): .object([:]),
        ]
        #expect(throws: SchemaSetError.self) { try migrations.migrate(clash, from: 1) }
        let invalid: [DocumentPath: JSONValue] = [try path("users/u1/tasks/t1"): .object(["profileId": .string("..")])]
        #expect(throws: SchemaSetError.self) { try migrations.migrate(invalid, from: 1) }
    }

    @Test func badDeclarationsSayWhatIsWrong() {
        let cases: [(String, String)] = [
            (#"{"schemaVersion": 0}"#, "schemaVersion must be an integer"),
            (#"{"schemaVersion": 2}"#, "no migration goes from 1 to 2"),
            (#"{"schemaVersion": 2, "migrations": [{"from": 1, "to": 3, "steps": []}]}"#, "from one version to the next"),
            (#"{"schemaVersion": 2, "migrations": [{"from": 1, "to": 2, "steps": [{"copy": {}}]}]}"#, "unknown step copy"),
            (
                #"{"schemaVersion": 2, "migrations": [{"from": 1, "to": 2, "steps": [{"move": {"from": "users/{uid}"}}]}]}"#,
                "\"to\" must be a document path pattern"
            ),
            (
                #"{"schemaVersion": 2, "migrations": [{"from": 1, "to": 2, "steps": [{"remove": {"in": "users/{uid}", "field": "name"}}]}]}"#,
                "JSON pointer"
            ),
        ]
        for (text, reason) in cases {
            do {
                _ = try SchemaMigrations(json: Array(text.utf8))
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.description.contains(reason), "\(text): \(error.description)")
            }
        }
    }

    @Test func retentionKeepsTheLatestByItsFieldTiesByID() throws {
        let retention = try #require(RetentionPolicy(annotation: .object(["keep": .integer(2), "by": .string("completedAt")])))
        let documents: [DocumentPath: JSONValue] = [
            try path("users/u1/examAttempts/a"): .object(["completedAt": .string("2026-11-01T10:00:00Z")]),
            try path("users/u1/examAttempts/b"): .object(["completedAt": .string("2026-11-03T10:00:00Z")]),
            try path("users/u1/examAttempts/c"): .object(["completedAt": .string("2026-11-02T10:00:00Z")]),
            try path("users/u1/examAttempts/d"): .object(["completedAt": .string("2026-11-02T10:00:00Z")]),
            try path("users/u1/examAttempts/e"): .object([:]),
        ]
        #expect(
            retention.expired(documents).sorted() == [
                try path("users/u1/examAttempts/a"), try path("users/u1/examAttempts/c"), try path("users/u1/examAttempts/e"),
            ])
        for bad: JSONValue in [.object(["keep": .integer(0), "by": .string("x")]), .object(["keep": .integer(2)]), .string("50")] {
            #expect(RetentionPolicy(annotation: bad) == nil)
        }
    }

    @Test func checkpointPoliciesAreReadFromTheShippedSet() throws {
        #expect(CheckpointPolicy(annotation: .string("immediate")) == .immediate)
        #expect(CheckpointPolicy(annotation: .object(["throttle": .integer(60)])) == .throttle(60))
        #expect(CheckpointPolicy(annotation: .object(["debounce": .double(2.5)])) == .debounce(2.5))
        for bad: JSONValue in [.string("soon"), .object(["debounce": .integer(-1)]), .object(["wait": .integer(1)])] {
            #expect(CheckpointPolicy(annotation: bad) == nil)
        }
        let set = try SchemaSet(files: shippedSchemaSet("life-in-uk").files)
        #expect(set.kind(of: try path("users/u1/examAttempts/a1"))?.checkpoint == .immediate)
        #expect(set.kind(of: try path("users/u1/examInProgress/p1"))?.checkpoint == .throttle(60))
        #expect(set.kind(of: try path("users/u1/books/b1"))?.checkpoint == .debounce(5))
        let remi = try SchemaSet(files: shippedSchemaSet("remi").files)
        #expect(remi.migrations.version == 2)
        #expect(try SchemaSet(files: shippedSchemaSet("remi-v1").files).migrations == .initial)
    }

    @Test func theIDsOfAPathAreCheckedByTheirSchemas() throws {
        let remi = try SchemaSet(files: shippedSchemaSet("remi").files)
        let habit: JSONValue = .object([
            "id": .string("h1"), "userId": .string("u1"), "profileId": .string("+447700900123"),
            "scheduledTime": .string("09:00"), "nextScheduledDate": .string("2026-11-23"),
        ])
        #expect(remi.validate(habit, at: try path("users/u1/profiles/+447700900123/habits/h1")).isEmpty)
        let errors = remi.validate(habit, at: try path("users/u1/profiles/rose/habits/h1"))
        #expect(errors.first?.pointer == "{phone}")
        #expect(errors.first?.description.contains("the ID \"rose\" does not match") == true)
        let bad = #"{"x-cairn": {"path": "users/{uid}/notes/{noteId}", "ids": {"phone": {"pattern": "x"}}}}"#
        #expect(throws: SchemaSetError.self) { try SchemaSet(files: ["note.schema.json": Array(bad.utf8)]) }
    }
}
