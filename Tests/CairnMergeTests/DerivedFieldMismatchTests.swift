import CairnMerge
import CairnTestSupport
import Testing

/// Derived fields found wrong: each field named with the value expected and the value found,
/// counts only when the counted documents are given, and the documents a change can affect.
@Suite struct DerivedFieldMismatchTests {
    static func set(_ name: String) throws -> SchemaSet {
        try SchemaSet(files: shippedSchemaSet(name).files)
    }

    @Test func aBooksStaleAndMissingFieldsAreNamedWithExpectedAndFound() throws {
        let set = try Self.set("life-in-uk")
        let path = try DocumentPath("users/u1/books/b1")
        let kind = try #require(set.kind(of: path))
        let book = try JSONParser().parse(
            #"{"schemaVersion":1,"bookId":"b1","sections":{"s1":{"completed":true,"updatedAt":10},"s2":{"completed":true,"updatedAt":20}},"completedCount":1,"updatedAt":20}"#
        )
        let found = kind.derivedMismatches(of: book, at: path)
        #expect(
            found.map(\.description) == [
                "users/u1/books/b1: derived field completedCount is 1, expected 2 (book.schema.json)",
                "users/u1/books/b1: derived field lastSectionId is absent, expected \"s2\" (book.schema.json)",
            ])
        #expect(
            found.first?.described(verb: "was") == "users/u1/books/b1: derived field completedCount was 1, expected 2 (book.schema.json)")
        #expect(kind.derivedMismatches(of: kind.filled(book), at: path).isEmpty)
        #expect(kind.derivedMismatches(of: .array([]), at: path).isEmpty)
    }

    @Test func countsAreCheckedOnlyAgainstTheDocumentsGiven() throws {
        let set = try Self.set("oybc")
        let board = try DocumentPath("users/u1/boards/b1")
        let task = try DocumentPath("users/u1/boards/b1/boardTasks/t1")
        let kind = try #require(set.kind(of: board))
        let value = try JSONParser().parse(#"{"id":"b1","totalTasks":0,"completedTasks":0,"completionPercentage":0.0,"linesCompleted":0}"#)
        #expect(kind.derivedMismatches(of: value, at: board).isEmpty)
        let done = try JSONParser().parse(#"{"id":"t1","isCompleted":true,"isDeleted":false}"#)
        let found = kind.derivedMismatches(of: value, at: board) { count in count.contains(task, below: board) ? [done] : [] }
        #expect(found.map(\.field) == ["completedTasks", "completionPercentage", "totalTasks"])
        #expect(found.last?.expected == .integer(1) && found.last?.found == .integer(0))
        // A task changes: the board that counts it is to be derived again, the task is not.
        #expect(set.documentsToDerive(after: [task]) == [board])
        #expect(set.documentsToDerive(after: [board, task]) == [board])
    }
}
