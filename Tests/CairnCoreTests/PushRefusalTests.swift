import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Testing

@testable import CairnCore

/// Which documents a server's refusal names.
@Suite(.historiesVerified) struct PushRefusalTests {
    @Test func aRefusalNamesWholeDocumentPathsOnly() throws {
        let a1 = try DocumentPath("users/u1/examAttempts/a1")
        let said = "users/u1/examAttempts/a10 breaks its schema (exam-attempt.schema.json) at /score: is 150; maximum is 100"
        #expect(!Store.text(said, names: a1))
        #expect(Store.text(said, names: try DocumentPath("users/u1/examAttempts/a10")))
        #expect(Store.text("users/u1/examAttempts/a1 is append-only (exam-attempt.schema.json)", names: a1))
        #expect(Store.text("x; users/u1/examAttempts/a1: derived field n is 1, expected 2 (s.json)", names: a1))
        #expect(Store.text("ends with users/u1/examAttempts/a1", names: a1))
        // A file a per-commit rule names is not the document: a new checkpoint would not help.
        #expect(!Store.text("commit 1234567: users/u1/examAttempts/a1.json is executable", names: a1))
        #expect(!Store.text("users/u1/examAttempts/a1.v2 is not valid JSON", names: a1))
    }
}
