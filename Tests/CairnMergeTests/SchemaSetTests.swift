import CairnMerge
import CairnTestSupport
import Testing

/// The `life-in-uk` schema set, as seed 000 describes its documents.
@Suite struct SchemaSetTests {
    let set: SchemaSet

    init() throws {
        set = try SchemaSet(files: shippedSchemaSet("life-in-uk").files)
    }

    func json(_ text: String) throws -> JSONValue { try JSONParser().parse(text) }
    func path(_ text: String) throws -> DocumentPath { try DocumentPath(text) }

    @Test func everyKindIsFoundByItsPath() throws {
        #expect(set.kinds.count == 5)
        #expect(set.kind(of: try path("users/u1"))?.file == "user.schema.json")
        #expect(set.kind(of: try path("users/u1/progress/exam"))?.file == "progress-exam.schema.json")
        #expect(set.kind(of: try path("users/u1/examAttempts/attempt-1"))?.file == "exam-attempt.schema.json")
        #expect(set.kind(of: try path("users/u1/examInProgress/practice-1"))?.file == "exam-in-progress.schema.json")
        #expect(set.kind(of: try path("users/u1/books/b1"))?.file == "book.schema.json")
        #expect(set.kind(of: try path("users/u1/progress/other")) == nil)
        #expect(set.policy(for: try path("users/u1/examAttempts/a")) == .appendOnly)
    }

    @Test func acceptsTheSeedsDocumentsAndNamesWhatIsWrong() throws {
        let attempt = try json(
            #"{"schemaVersion":1,"attemptId":"attempt-1730000000000","examId":"practice-1","startedAt":"2025-12-01T09:20:00.000Z","completedAt":"2025-12-01T10:00:00.000Z","status":"passed","score":83,"totalQuestions":24,"correctAnswers":20,"timeSpentInSeconds":2400,"flaggedQuestions":["Q10169"],"questionIds":["Q10169","Q10170"],"answers":{"Q10169":["1"],"Q10170":["0","3"]},"content":{"examLanguage":"en"},"createdAt":"serverTimestamp","clientCreatedAt":1730000000000}"#
        )
        #expect(set.validate(attempt, at: try path("users/u1/examAttempts/attempt-1730000000000")).isEmpty)
        let wrong = try json(#"{"attemptId":"a","examId":"practice-1","status":"maybe","score":120,"answers":{"Q1":[1]}}"#)
        let errors = set.validate(wrong, at: try path("users/u1/examAttempts/a")).map(\.description).sorted()
        #expect(
            errors == [
                "/answers/Q1/0: is integer, must be string (type at /properties/answers/additionalProperties/items/type)",
                "/score: is 120; maximum is 100 (maximum at /properties/score/maximum)",
                "/status: is not one of the allowed values (enum at /properties/status/enum)",
            ])
        // A field the schema does not name is kept, not refused.
        let extra = try json(#"{"schemaVersion":1,"bookId":"b1","sections":{},"newFeature":{"x":1}}"#)
        #expect(set.validate(extra, at: try path("users/u1/books/b1")).isEmpty)
    }

    @Test func bookProgressMergesPerSectionAndRecomputesItsAggregates() throws {
        let book = try path("users/u1/books/life-in-the-uk")
        let base = set.filled(
            try json(
                #"{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s1":{"completed":true,"updatedAt":100}},"updatedAt":100}"#),
            at: book)
        #expect(base.field("completedCount") == .integer(1))
        #expect(base.field("lastSectionId") == .string("s1"))
        let phone = set.filled(
            try json(
                #"{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s1":{"completed":true,"updatedAt":100},"s2":{"completed":true,"updatedAt":200}},"updatedAt":200}"#
            ), at: book)
        let tablet = set.filled(
            try json(
                #"{"schemaVersion":1,"bookId":"life-in-the-uk","sections":{"s1":{"completed":false,"updatedAt":150},"s3":{"completed":true,"updatedAt":300}},"updatedAt":300}"#
            ), at: book)
        let merged = set.merge(book, base: base, ours: phone, theirs: tablet)
        let reversed = set.merge(book, base: base, ours: tablet, theirs: phone)
        #expect(merged.value?.canonicalBytes() == reversed.value?.canonicalBytes())
        let value = try #require(merged.value)
        #expect(
            value.field("sections")
                == (try json(
                    #"{"s1":{"completed":false,"updatedAt":150},"s2":{"completed":true,"updatedAt":200},"s3":{"completed":true,"updatedAt":300}}"#
                )))
        #expect(value.field("completedCount") == .integer(2))
        #expect(value.field("lastSectionId") == .string("s3"))
        #expect(value.field("updatedAt") == .integer(300))
        #expect(merged.conflicts.allSatisfy { $0.document?.description == "users/u1/books/life-in-the-uk" })
        #expect(!merged.conflicts.contains { $0.pointer == "/completedCount" || $0.pointer == "/lastSectionId" })
    }

    /// What a document lacks under `dependentRequired` is said in key order, the same in
    /// every process (not in the order a dictionary happens to hold).
    @Test func dependentFieldsLackingAreNamedInKeyOrder() throws {
        let triggers = "abcdefgh".map(String.init)
        let schema = Schema(
            .object([
                "dependentRequired": .object(JSONObject(uniqueKeysWithValues: triggers.map { ($0, JSONValue.array([.string($0 + "2")])) }))
            ]))
        let errors = schema.validate(.object(JSONObject(uniqueKeysWithValues: triggers.map { ($0, JSONValue.bool(true)) })))
        #expect(errors.map(\.message) == triggers.map { "has \"\($0)\", so needs \"\($0)2\"" })
    }

    @Test func refusesASetItCannotUse() throws {
        let schema = Array(#"{"type":"object"}"#.utf8)
        #expect(throws: SchemaSetError.self) { try SchemaSet(files: ["a.schema.json": schema]) }
        let badPath = Array(#"{"x-cairn":{"path":"books/{bookId}"}}"#.utf8)
        #expect(throws: SchemaSetError.self) { try SchemaSet(files: ["a.schema.json": badPath]) }
        let twice = Array(#"{"x-cairn":{"path":"users/{uid}/books/{bookId}"}}"#.utf8)
        #expect(throws: SchemaSetError.self) { try SchemaSet(files: ["a.schema.json": twice, "b.schema.json": twice]) }
        let badPolicy = Array(#"{"x-cairn":{"path":"users/{uid}"},"x-merge":"newest"}"#.utf8)
        do {
            _ = try SchemaSet(files: ["u.schema.json": badPolicy])
            Issue.record("accepted")
        } catch {
            #expect(
                error.description
                    == "schema u.schema.json: x-merge at /x-merge: unknown policy \"newest\"; use fields, append-only, counter, max, min, union or an object form"
            )
        }
    }
}
