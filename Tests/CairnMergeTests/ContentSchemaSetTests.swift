import CairnMerge
import CairnTestSupport
import Foundation
import Testing

/// A content set (`"x-cairn": {"content": true}` on every kind) describes one collection of
/// shared content: it loads with its collection named, its documents are checked like any
/// set's, and a set that mixes content and progress, or two collections, is refused by
/// loading and named by the check — while a set of progress reads as before.
@Suite struct ContentSchemaSetTests {
    static let assessment =
        #"{"x-cairn": {"content": true, "path": "assessments/{assessmentId}"}, "type": "object", "required": ["title"], "properties": {"title": {"type": "string"}, "questionCount": {"type": "integer", "x-merge": {"derive": {"countDocuments": "questions"}}}}}"#
    static let question =
        #"{"x-cairn": {"content": true, "path": "assessments/{assessmentId}/questions/{questionId}"}, "type": "object", "properties": {"points": {"type": "number", "minimum": 0}}}"#
    static let plainAssessment = #"{"x-cairn": {"content": true, "path": "assessments/{assessmentId}"}, "type": "object"}"#
    static let progress = #"{"x-cairn": {"path": "users/{uid}/answers/{answerId}"}, "type": "object"}"#

    func files(_ files: [String: String]) -> [String: [UInt8]] {
        files.mapValues { Array($0.utf8) }
    }

    func refusal(_ files: [String: String]) -> String? {
        do {
            _ = try SchemaSet(files: self.files(files))
            return nil
        } catch {
            return error.description
        }
    }

    func findings(_ files: [String: String]) -> [String] {
        SchemaSetCheck(files: self.files(files)).findings.map(\.description)
    }

    @Test func aContentSetNamesItsCollectionAndChecksItsDocuments() throws {
        let set = try SchemaSet(files: files(["assessment.schema.json": Self.assessment, "question.schema.json": Self.question]))
        #expect(set.contentCollection == "assessments")
        #expect(set.isContent)
        let question = try DocumentPath("assessments/a1/questions/q1")
        #expect(set.kind(of: question)?.file == "question.schema.json")
        #expect(set.validate(.object(["points": .integer(-1)]), at: question).map(\.pointer) == ["/points"])
        #expect(set.kind(of: try DocumentPath("assessments/a1"))?.counted.keys.sorted() == ["questionCount"])
        #expect(findings(["assessment.schema.json": Self.assessment, "question.schema.json": Self.question]) == [])
        #expect(
            set.description(named: "quiz").hasPrefix("quiz: 2 kinds of document, version 1, shared content of the collection assessments\n")
        )
        #expect(set.jsonDescription(named: "quiz").field("content") == .string("assessments"))
    }

    @Test func aSetOfProgressIsNoContent() throws {
        let set = try SchemaSet(files: files(["answer.schema.json": Self.progress]))
        #expect(set.contentCollection == nil)
        #expect(set.jsonDescription(named: "answers").field("content") == .null)
        // Marked false in so many words, it is progress too.
        let marked = Self.progress.replacingOccurrences(of: #""x-cairn": {"#, with: #""x-cairn": {"content": false, "#)
        #expect(try SchemaSet(files: files(["answer.schema.json": marked])).contentCollection == nil)
        #expect(findings(["answer.schema.json": marked]) == [])
    }

    @Test func aSetOfContentAndProgressIsRefused() {
        let mixed = ["assessment.schema.json": Self.plainAssessment, "answer.schema.json": Self.progress]
        #expect(
            refusal(mixed)
                == #"schema assessment.schema.json: it is marked "content": true, and answer.schema.json is not; a set describes progress or content, not both"#
        )
        #expect(
            findings(mixed) == [
                #"assessment.schema.json: /x-cairn/content: cairn-annotation: the kind is content and answer.schema.json is progress; a set describes one or the other: mark every kind "content": true, or none"#
            ])
    }

    @Test func aContentSetOfTwoCollectionsIsRefused() {
        let book = #"{"x-cairn": {"content": true, "path": "books/{bookId}"}, "type": "object"}"#
        let two = ["assessment.schema.json": Self.plainAssessment, "book.schema.json": book]
        #expect(
            refusal(two)
                == "schema book.schema.json: its collection books is not assessments, the collection of assessment.schema.json; a content set describes one collection"
        )
        #expect(
            findings(two) == [
                "book.schema.json: /x-cairn/path: path-pattern: the collection books is not assessments, the collection of assessment.schema.json; a content set describes one collection"
            ])
    }

    @Test func aContentPathStartsWithALiteralCollectionAndTheItem() {
        for path in ["users/{uid}/books/{bookId}", "{collection}/{itemId}", "books/b1"] {
            let schema = #"{"x-cairn": {"content": true, "path": "\#(path)"}, "type": "object"}"#
            #expect(
                refusal(["book.schema.json": schema])
                    == "schema book.schema.json: x-cairn.path \(path) is not a content path: a literal collection and the item's placeholder, like assessments/{assessmentId}",
                "\(path)")
            #expect(findings(["book.schema.json": schema]).count == 1, "\(path)")
        }
        // A progress path for a kind not marked content: as before.
        #expect(
            refusal(["book.schema.json": #"{"x-cairn": {"path": "books/{bookId}"}, "type": "object"}"#])
                == "schema book.schema.json: x-cairn.path books/{bookId} is not a document path under users/{uid}/")
    }

    @Test func contentIsTrueOrFalse() {
        let schema = #"{"x-cairn": {"content": "yes", "path": "books/{bookId}"}, "type": "object"}"#
        #expect(
            refusal(["book.schema.json": schema]) == "schema book.schema.json: x-cairn.content is true (shared content) or false (progress)"
        )
        #expect(
            findings(["book.schema.json": schema]).contains(
                #"book.schema.json: /x-cairn/content: cairn-annotation: x-cairn.content is true (the kind is shared content) or false (progress)"#
            ))
    }

    @Test func checkpointAndRetentionAreNotReadForContent() {
        let schema =
            #"{"x-cairn": {"content": true, "path": "books/{bookId}", "checkpoint": "immediate", "retention": {"keep": 3, "by": "at"}}, "type": "object", "properties": {"at": {"type": "integer"}}}"#
        #expect(
            findings(["book.schema.json": schema]) == [
                "book.schema.json: /x-cairn/checkpoint: cairn-annotation: x-cairn.checkpoint is not read for shared content, which its authors publish with git; remove it",
                "book.schema.json: /x-cairn/retention: cairn-annotation: x-cairn.retention is not read for shared content, which its authors publish with git; remove it",
            ])
    }

    @Test func showSaysNothingOfCheckpointsForContent() throws {
        let set = try SchemaSet(files: files(["question.schema.json": Self.question]))
        #expect(
            set.description(named: "quiz") == """
                quiz: 1 kind of document, version 1, shared content of the collection assessments

                assessments/{assessmentId}/questions/{questionId}
                  file: question.schema.json
                  ids: any valid ID
                  policy: fields

                """)
    }

    @Test(arguments: ["edumind-content", "bonfire-content"])
    func theShippedContentSetsAreContent(_ name: String) throws {
        let set = try SchemaSet(files: try shippedSchemaSet(name).files)
        #expect(set.contentCollection == (name == "edumind-content" ? "assessments" : "books"))
    }
}
