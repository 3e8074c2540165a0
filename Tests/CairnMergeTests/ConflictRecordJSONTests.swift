import CairnMerge
import Testing

/// Conflict records as merge commits carry them: JSON that reads back to the same record.
@Suite struct ConflictRecordJSONTests {
    @Test func recordsReadBackAsWritten() throws {
        let records = [
            ConflictRecord(
                document: try DocumentPath("users/u1/books/b1"), pointer: "/sections/s1",
                policy: .lww("updatedAt", futureClamped: false),
                kept: .object(["completed": .bool(true), "updatedAt": .integer(30)]),
                replaced: .object(["completed": .bool(false), "updatedAt": .integer(20)])),
            ConflictRecord(
                document: try DocumentPath("users/u1/examAttempts/a1"), pointer: "", policy: .appendOnly,
                kept: .object(["score": .integer(80)]), replaced: nil),
            ConflictRecord(
                document: try DocumentPath("users/u1"), pointer: "/name", policy: .fields, kept: nil,
                replaced: .string("Ann \"A\"\n")),
        ]
        for record in records {
            let text = record.jsonValue.canonicalBytes()
            #expect(ConflictRecord(json: try JSONParser().parse(text)) == record)
        }
        #expect(ConflictRecord(json: .object(["document": .string("x")])) == nil)
        #expect(ConflictRecord(json: .array([])) == nil)
    }
}
