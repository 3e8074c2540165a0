import CairnMerge
import Testing

/// A kind of progress names the shared content its documents answer
/// (`"x-cairn": {"pins": {"collection", "item", "version"}}`): the set reads it onto the kind,
/// refuses one it cannot read with a sentence naming the file, the check names every way an
/// annotation goes wrong (unreadable, on content, pointing to fields that cannot hold a string),
/// and `schema show` lists it in text and JSON.
@Suite struct PinnedProgressSchemaTests {
    static func response(
        pins: String, properties: String = #""assessment_id": {"type": "string"}, "content_version": {"type": "string"}"#,
        extra: String = ""
    ) -> String {
        #"{"x-cairn": {"path": "users/{uid}/responses/{responseId}", "pins": \#(pins)}, "type": "object", \#(extra)"properties": {\#(properties)}}"#
    }
    static let pins = #"{"collection": "assessments", "item": "/assessment_id", "version": "/content_version"}"#

    func set(_ schema: String) throws(SchemaSetError) -> SchemaSet {
        try SchemaSet(files: ["response.schema.json": Array(schema.utf8)])
    }

    func refusal(_ schema: String) -> String? {
        do {
            _ = try set(schema)
            return nil
        } catch {
            return error.description
        }
    }

    func findings(_ schema: String, file: String = "response.schema.json", more: [String: String] = [:]) -> [String] {
        SchemaSetCheck(files: more.merging([file: schema]) { $1 }.mapValues { Array($0.utf8) }).findings.map(\.description)
    }

    @Test func theKindKnowsTheContentItsDocumentsAnswer() throws {
        let set = try set(Self.response(pins: Self.pins))
        let kind = try #require(set.kind(of: try DocumentPath("users/u1/responses/r1")))
        let pin = try #require(kind.pin)
        #expect(pin == ContentPin(collection: "assessments", itemPointer: "/assessment_id", versionPointer: "/content_version"))
        #expect(pin.itemField == "assessment_id")
        #expect(pin.versionField == "content_version")
        let document = JSONValue.object(["assessment_id": .string("a1"), "content_version": .string("abc")])
        #expect(pin.item(of: document) == "a1")
        #expect(pin.version(of: document) == "abc")
        #expect(pin.item(of: .object(["assessment_id": .integer(3)])) == nil)
        #expect(findings(Self.response(pins: Self.pins)) == [])
    }

    @Test func aPointerTokenIsUnescaped() throws {
        let pin = try ContentPin(
            annotation: .object(["collection": .string("books"), "item": .string("/book~1id"), "version": .string("/v~0")]))
        #expect(pin.itemField == "book/id")
        #expect(pin.versionField == "v~")
    }

    @Test func anUnreadableAnnotationIsRefusedWhenTheSetIsRead() {
        #expect(
            refusal(Self.response(pins: #""assessments""#))
                == "schema response.schema.json: " + ContentPin.form)
        #expect(
            refusal(Self.response(pins: #"{"collection": "a/b", "item": "/assessment_id", "version": "/content_version"}"#))
                == "schema response.schema.json: x-cairn.pins.collection is not an ID: an ID may not contain '/'")
        #expect(
            refusal(Self.response(pins: #"{"collection": "assessments", "item": "/assessment/id", "version": "/content_version"}"#))
                == #"schema response.schema.json: x-cairn.pins.item is the JSON pointer of the top-level field holding the item's ID, like "/assessment_id""#
        )
        #expect(
            refusal(Self.response(pins: #"{"collection": "assessments", "item": "/assessment_id"}"#))
                == #"schema response.schema.json: x-cairn.pins.version is the JSON pointer of the top-level field holding the version Cairn fills, like "/content_version""#
        )
        #expect(
            refusal(Self.response(pins: #"{"collection": "assessments", "item": "/a", "version": "/a"}"#))
                == "schema response.schema.json: x-cairn.pins.version points to the same field as x-cairn.pins.item; the version needs a field of its own"
        )
        #expect(
            refusal(Self.response(pins: #"{"collection": "assessments", "item": "/a", "version": "/b", "at": "x"}"#))
                == "schema response.schema.json: x-cairn.pins.at is not read by Cairn; " + ContentPin.form)
    }

    @Test func contentPinsNothing() {
        let content = #"{"x-cairn": {"content": true, "path": "assessments/{assessmentId}", "pins": \#(Self.pins)}, "type": "object"}"#
        #expect(
            refusal(content)
                == "schema response.schema.json: x-cairn.pins is for progress that answers content; shared content pins nothing — remove it"
        )
        #expect(
            findings(content) == [
                "response.schema.json: /x-cairn/pins: cairn-annotation: x-cairn.pins is for progress that answers content; shared content pins nothing — remove it"
            ])
    }

    @Test func theCheckNamesWhereTheAnnotationGoesWrong() {
        #expect(
            findings(Self.response(pins: #"{"collection": "assessments", "item": "assessment_id", "version": "/content_version"}"#)) == [
                #"response.schema.json: /x-cairn/pins/item: cairn-annotation: x-cairn.pins.item is the JSON pointer of the top-level field holding the item's ID, like "/assessment_id""#
            ])
        #expect(
            findings(Self.response(pins: #"{"collection": "", "item": "/assessment_id", "version": "/content_version"}"#)) == [
                "response.schema.json: /x-cairn/pins/collection: cairn-annotation: x-cairn.pins.collection is not an ID: an ID may not be empty"
            ])
    }

    @Test func theFieldsHoldStrings() {
        let numbers = Self.response(
            pins: Self.pins, properties: #""assessment_id": {"type": "integer"}, "content_version": {"type": "number"}"#)
        #expect(
            findings(numbers) == [
                #"response.schema.json: /x-cairn/pins/item: cairn-annotation: x-cairn.pins.item points to "assessment_id", which is an integer; the item's ID is a string"#,
                #"response.schema.json: /x-cairn/pins/version: cairn-annotation: x-cairn.pins.version points to "content_version", which is a number; the version (a commit id) is a string"#,
            ])
        // Undeclared fields are the app's business, unless the schema allows no others.
        #expect(findings(Self.response(pins: Self.pins, properties: "")) == [])
        #expect(
            findings(
                Self.response(
                    pins: Self.pins, properties: #""assessment_id": {"type": "string"}"#, extra: #""additionalProperties": false, "#)) == [
                    #"response.schema.json: /x-cairn/pins/version: cairn-annotation: the version field "content_version" is not declared and the schema allows no other fields, so every pinned document would break it; declare it in properties: {"type": "string"}"#
                ])
        let computed = Self.response(
            pins: Self.pins,
            properties:
                #""assessment_id": {"type": "string"}, "m": {"type": "object"}, "content_version": {"type": "string", "x-merge": {"derive": {"latestKey": "m", "by": "at"}}}"#
        )
        #expect(
            findings(computed).contains(
                #"response.schema.json: /x-cairn/pins/version: cairn-annotation: the version field "content_version" is computed (x-merge.derive); Cairn fills it with the content's version — use a field of its own"#
            ))
    }

    static func firstKind(_ description: JSONValue) -> JSONValue? {
        guard case .array(let kinds)? = description.field("kinds") else { return nil }
        return kinds.first
    }

    @Test func schemaShowListsThePins() throws {
        let set = try set(Self.response(pins: Self.pins))
        #expect(
            set.description(named: "answers").contains(
                "\n  pins: assessments, the item in /assessment_id, the version in /content_version\n"))
        let kind = Self.firstKind(set.jsonDescription(named: "answers"))
        #expect(
            kind?.field("pins")
                == .object([
                    "collection": .string("assessments"), "item": .string("/assessment_id"), "version": .string("/content_version"),
                ]))
        let unpinned = try SchemaSet(files: [
            "note.schema.json": Array(#"{"x-cairn": {"path": "users/{uid}/notes/{n}"}, "type": "object"}"#.utf8)
        ])
        #expect(!unpinned.description(named: "notes").contains("pins:"))
        #expect(Self.firstKind(unpinned.jsonDescription(named: "notes"))?.field("pins") == .null)
    }
}
