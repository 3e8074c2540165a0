import CairnMerge
import Foundation
import Testing

/// `x-firestore` is an annotation the check knows: a right one is no finding (and documents are
/// checked as without it), a wrong word or a type that cannot hold it is one line.
@Suite struct FirestoreAnnotationTests {
    func lines(_ properties: String) -> [String] {
        let file = #"{"x-cairn": {"path": "users/{uid}/places/{placeId}"}, "type": "object", "properties": {\#(properties)}}"#
        return SchemaSetCheck(files: ["place.schema.json": Array(file.utf8)]).findings.map(\.description)
    }

    @Test func everyFirestoreTypeIsAnAnnotationTheCheckAccepts() throws {
        #expect(
            lines(
                #""owner": {"type": "string", "x-firestore": "reference"}, "photo": {"type": ["string", "null"], "x-firestore": "bytes"}, "at": {"type": "string", "x-firestore": "timestamp"}, "where": {"type": "object", "x-firestore": "geopoint"}, "share": {"type": "integer", "x-firestore": "double"}, "n": {"type": "number", "x-firestore": "integer"}, "any": {"x-firestore": "reference"}"#
            ) == [])
        let set = try SchemaSet(files: [
            "place.schema.json": Array(
                #"{"x-cairn": {"path": "users/{uid}/places/{placeId}"}, "type": "object", "properties": {"owner": {"type": "string", "x-firestore": "reference"}}}"#
                    .utf8)
        ])
        let kind = try #require(set.kinds.first)
        #expect(kind.validate(.object(["owner": .string("users/u1/x/y")]), at: try DocumentPath("users/u1/places/p1")).isEmpty)
        #expect(
            !kind.validate(.object(["owner": .integer(1)]), at: try DocumentPath("users/u1/places/p1")).isEmpty, "the type is still checked"
        )
    }

    @Test func aWrongWordOrATypeThatCannotHoldItIsOneLine() {
        #expect(
            lines(#""owner": {"type": "string", "x-firestore": "refrence"}"#) == [
                #"place.schema.json: /properties/owner/x-firestore: firestore-type: x-firestore is one of "timestamp", "reference", "bytes", "geopoint", "integer", "double"; did you mean "reference"?"#
            ])
        #expect(
            lines(#""where": {"type": "string", "x-firestore": "geopoint"}"#) == [
                #"place.schema.json: /properties/where/x-firestore: firestore-type: x-firestore "geopoint" is kept in JSON as object, and the schema declares a string without "format": "date-time"; declare a type that holds it, or remove the annotation"#
            ])
        #expect(lines(#""at": {"type": "string", "x-firestore": 3}"#).count == 1)
    }
}
