import CairnMerge
import CairnTestSupport
import Foundation
import Testing

/// `cairn schema check`'s lint: each rule, shown by a small set that breaks it and nothing
/// else, gives exactly one line naming the file, the JSON pointer and the rule; the shipped
/// sets give none.
@Suite struct SchemaSetCheckTests {
    /// The lines the check prints for a set of files given as text.
    func lines(_ files: [String: String]) -> [String] {
        SchemaSetCheck(files: files.mapValues { Array($0.utf8) }).findings.map(\.description)
    }

    /// A book schema with `properties` as given, at `users/{uid}/books/{bookId}`.
    func book(_ properties: String, cairn: String = "") -> [String: String] {
        [
            "book.schema.json":
                #"{"x-cairn": {"path": "users/{uid}/books/{bookId}"\#(cairn)}, "type": "object", "properties": {\#(properties)}}"#
        ]
    }

    @Test(arguments: ShippedSchemaSetsTests.sets)
    func theShippedSetsPass(_ name: String) throws {
        #expect(SchemaSetCheck(files: try shippedSchemaSet(name).files).findings.map(\.description) == [])
    }

    @Test func aSetWithoutFindingsLoads() throws {
        let files = book(
            #""sections": {"type": "object", "x-merge": {"entries": "latest", "by": "updatedAt"}, "additionalProperties": {"type": "object", "properties": {"done": {"type": "boolean"}, "updatedAt": {"type": "string", "format": "date-time"}}}}, "done": {"type": "integer", "x-merge": {"derive": {"count": "sections", "where": {"done": true}}}}"#
        )
        #expect(lines(files) == [])
        #expect(try SchemaSet(files: files.mapValues { Array($0.utf8) }).kinds.count == 1)
    }

    @Test func aFileThatIsNotJSON() {
        #expect(
            lines(["book.schema.json": "{\"x-cairn\": "]) == [
                "book.schema.json: /: json: " + SchemaSetCheckTests.parseMessage("{\"x-cairn\": ")
            ])
        #expect(lines(["book.schema.json": "[]"]) == ["book.schema.json: /: json: a schema file holds a JSON object, not array"])
    }

    @Test func aMisspeltPolicyWordSuggestsTheNearest() {
        #expect(
            lines(book(#""reads": {"type": "integer", "x-merge": "conter"}"#)) == [
                #"book.schema.json: /properties/reads/x-merge: merge-word: unknown x-merge word "conter"; did you mean "counter"?"#
            ])
        #expect(
            lines(book(#""meta": {"type": "object", "x-merge": {"lwww": "at"}, "properties": {"at": {"type": "integer"}}}"#)) == [
                #"book.schema.json: /properties/meta/x-merge/lwww: merge-word: unknown x-merge key "lwww"; did you mean "lww"?"#
            ])
        #expect(
            lines(book(#""reads": {"type": "integer", "x-merge": "whatever"}"#)) == [
                #"book.schema.json: /properties/reads/x-merge: merge-word: unknown x-merge word "whatever"; use fields, append-only, counter, max, min or union, or an object form ({"lww": F}, {"highest": F}, {"entries": "latest", "by": F})"#
            ])
    }

    @Test func aPolicyOnAValueOfTheWrongType() {
        #expect(
            lines(book(#""reads": {"type": "string", "x-merge": "counter"}"#)) == [
                "book.schema.json: /properties/reads/x-merge: policy-type: counter adds up increments of an integer; this value is a string without \"format\": \"date-time\""
            ])
        #expect(
            lines(book(#""seen": {"type": "string", "x-merge": "max"}"#)) == [
                "book.schema.json: /properties/seen/x-merge: policy-type: max compares numbers, date-time strings or booleans; this value is a string without \"format\": \"date-time\""
            ])
        #expect(
            lines(book(#""tags": {"type": "object", "x-merge": "union"}"#)) == [
                "book.schema.json: /properties/tags/x-merge: policy-type: union merges arrays as sets; this value is an object"
            ])
        #expect(
            lines(
                book(
                    #""sections": {"type": "object", "x-merge": {"entries": "latest", "by": "updatedAt"}, "properties": {"updatedAt": {"type": "integer"}}}"#
                )) == [
                    "book.schema.json: /properties/sections/x-merge: policy-type: entries merges the entries of a map; this object declares no schema for them (additionalProperties, or a single patternProperties)"
                ])
    }

    @Test func aStampThatIsNotDeclaredOrNotAStamp() {
        #expect(
            lines(book(#""meta": {"type": "object", "x-merge": {"lww": "changedAt"}, "properties": {"title": {"type": "string"}}}"#)) == [
                "book.schema.json: /properties/meta/x-merge/lww: stamp-field: lww orders by \"changedAt\", which the schema does not declare; declare it in properties (an integer, a number or a date-time string)"
            ])
        #expect(
            lines(book(#""meta": {"type": "object", "x-merge": {"lww": "done"}, "properties": {"done": {"type": "boolean"}}}"#)) == [
                "book.schema.json: /properties/meta/x-merge/lww: stamp-field: lww orders by \"done\", which is a boolean; a stamp is an integer, a number or a string with \"format\": \"date-time\""
            ])
    }

    @Test func aDerivedFieldOverAMissingMap() {
        #expect(
            lines(book(#""done": {"type": "integer", "x-merge": {"derive": {"count": "sectoins", "where": {"done": true}}}}"#)) == [
                "book.schema.json: /properties/done/x-merge/derive: derive-source: done reads the map \"sectoins\", which the schema does not declare"
            ])
        #expect(
            lines(
                book(
                    #""bars": {"type": "object", "additionalProperties": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}, "mastered": {"type": "integer", "x-merge": {"derive": {"count": "bar", "where": {"ok": true}}}}"#
                )) == [
                    "book.schema.json: /properties/mastered/x-merge/derive: derive-source: mastered reads the map \"bar\", which the schema does not declare; did you mean \"bars\"?"
                ])
        #expect(
            lines(
                book(
                    #""bars": {"type": "object", "additionalProperties": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}, "mastered": {"type": "integer", "x-merge": {"derive": {"count": "bars", "where": {"done": true}}}}"#
                )) == [
                    "book.schema.json: /properties/mastered/x-merge/derive: derive-source: mastered filters on \"done\", which the entries of bars do not declare"
                ])
        let counted = [
            "board.schema.json":
                #"{"x-cairn": {"path": "users/{uid}/boards/{boardId}"}, "type": "object", "properties": {"done": {"type": "integer", "x-merge": {"derive": {"countDocuments": "tasks", "where": {"completed": true}}}}}}"#,
            "task.schema.json": #"{"x-cairn": {"path": "users/{uid}/boards/{boardId}/boardTasks/{taskId}"}, "type": "object"}"#,
        ]
        #expect(
            lines(counted) == [
                "board.schema.json: /properties/done/x-merge/derive: derive-source: done counts the documents of tasks below users/{uid}/boards/{boardId}, which no kind of document of the set describes"
            ])
    }

    @Test func twoKindsWhosePathsOverlap() {
        #expect(
            lines([
                "a.schema.json": #"{"x-cairn": {"path": "users/{uid}/books/{bookId}/notes/n1"}}"#,
                "b.schema.json": #"{"x-cairn": {"path": "users/{uid}/books/b1/notes/{noteId}"}}"#,
            ]) == [
                "b.schema.json: /x-cairn/path: path-overlap: users/{uid}/books/b1/notes/{noteId} and a.schema.json's users/{uid}/books/{bookId}/notes/n1 both match users/uid/books/b1/notes/n1, equally specifically; name a collection or an ID literally in one of them"
            ])
        #expect(
            lines([
                "a.schema.json": #"{"x-cairn": {"path": "users/{uid}/books/{bookId}"}}"#,
                "b.schema.json": #"{"x-cairn": {"path": "users/{uid}/books/{id}"}}"#,
            ]) == [
                "b.schema.json: /x-cairn/path: path-overlap: users/{uid}/books/{id} and a.schema.json's users/{uid}/books/{bookId} both match users/uid/books/bookId, equally specifically; name a collection or an ID literally in one of them"
            ])
        // A more literal pattern is no overlap: it applies where it matches.
        #expect(
            lines([
                "a.schema.json": #"{"x-cairn": {"path": "users/{uid}/progress/{docId}"}}"#,
                "b.schema.json": #"{"x-cairn": {"path": "users/{uid}/progress/exam"}}"#,
            ]) == [])
    }

    @Test func aPathPatternThatBreaksTheIDRules() {
        func line(_ pattern: String) -> [String] {
            lines(["a.schema.json": #"{"x-cairn": {"path": "\#(pattern)"}}"#])
        }
        #expect(
            line("users/{uid}/{kind}/{id}") == [
                "a.schema.json: /x-cairn/path: path-pattern: segment 3 ({kind}) of users/{uid}/{kind}/{id} is a collection's name; collections are named literally, placeholders stand for IDs"
            ])
        #expect(
            line("users/{uid}/books") == [
                "a.schema.json: /x-cairn/path: path-pattern: users/{uid}/books names a collection (an odd number of segments); a document path alternates collection and ID, like users/{uid}/books/{bookId}"
            ])
        #expect(
            line("books/{bookId}") == [
                "a.schema.json: /x-cairn/path: path-pattern: books/{bookId} is not under users/{uid}/: a store holds one user's documents, so every path starts users/{uid}"
            ])
        #expect(
            line("users/{uid}/books/{id}/notes/{id}") == [
                "a.schema.json: /x-cairn/path: path-pattern: segment 6 ({id}) of users/{uid}/books/{id}/notes/{id}: the placeholder {id} appears twice; give each ID its own name"
            ])
        #expect(
            line("users/{uid}/__books__/{id}") == [
                "a.schema.json: /x-cairn/path: path-pattern: segment 3 (__books__) of users/{uid}/__books__/{id} is not a valid ID: IDs of the form __…__ are reserved; choose another ID"
            ])
    }

    @Test func keywordsTheValidatorDoesNotCheck() {
        #expect(
            lines(book(#""pages": {"type": "integer", "minimun": 1}"#)) == [
                "book.schema.json: /properties/pages/minimun: unclaimed-keyword: \"minimun\" is not a keyword Cairn's validator checks, so documents are not held to it; did you mean \"minimum\"?"
            ])
        #expect(
            lines(book(#""title": {"type": "string", "description": "shown", "format": "uri"}"#, cairn: #", "retension": 5"#)) == [
                "book.schema.json: /x-cairn/retension: unclaimed-keyword: x-cairn.retension is not read by Cairn; did you mean \"retention\"?"
            ])
        var files = book(#""tags": {"type": "array", "items": {"type": "string"}}"#)
        files["book.schema.json"] = files["book.schema.json"]!.replacingOccurrences(
            of: #""type": "object","#, with: #""type": "object", "unevaluatedProperties": false,"#)
        #expect(
            lines(files) == [
                "book.schema.json: /unevaluatedProperties: unclaimed-keyword: \"unevaluatedProperties\" is not a keyword Cairn's validator checks, so documents are not held to it; remove it, or check it in the app"
            ])
    }

    @Test func aPolicyWhereNoneIsRead() {
        #expect(
            lines(book(#""tags": {"type": "array", "items": {"type": "integer", "x-merge": "counter"}}"#)) == [
                "book.schema.json: /properties/tags/items/x-merge: merge-annotation: x-merge is never read here: policies are read on properties and on the entries of a map (additionalProperties, or a single patternProperties)"
            ])
    }

    @Test func cairnAnnotationsThatCannotBeRead() {
        #expect(
            lines(book("", cairn: #", "checkpoint": {"debounse": 5}"#)) == [
                "book.schema.json: /x-cairn/checkpoint: cairn-annotation: x-cairn.checkpoint is \"immediate\", {\"throttle\": seconds} or {\"debounce\": seconds}, seconds from 0 to 86400"
            ])
        #expect(
            lines(book(#""title": {"type": "string"}"#, cairn: #", "retention": {"keep": 5, "by": "title"}"#)) == [
                "book.schema.json: /x-cairn/retention/by: stamp-field: retention orders by \"title\", which is a string without \"format\": \"date-time\"; a stamp is an integer, a number or a string with \"format\": \"date-time\""
            ])
    }

    @Test func migrationsThatCannotBeRead() throws {
        var files = book(#""title": {"type": "string"}"#)
        files["migrations.json"] = #"{"schemaVersion": "two"}"#
        let found = lines(files)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("migrations.json: /: migrations: ") == true)
    }

    @Test func aFindingLineNamesTheWholeFileAsSlash() {
        let finding = SchemaSetFinding(file: "a.schema.json", pointer: "", rule: .json, message: "m")
        #expect(finding.description == "a.schema.json: /: json: m")
    }

    @Test func editDistanceCountsSingleEdits() {
        #expect(SchemaSetCheck.editDistance("conter", "counter") == 1)
        #expect(SchemaSetCheck.editDistance("kitten", "sitting") == 3)
        #expect(SchemaSetCheck.editDistance("", "max") == 3)
    }

    /// The parser's own message for `text`, which the `json` rule prints as it is.
    static func parseMessage(_ text: String) -> String {
        do {
            _ = try JSONParser().parse(text)
            return "parsed"
        } catch {
            return error.description
        }
    }
}
