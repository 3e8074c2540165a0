import CairnCore
import CairnFirestore
import CairnMerge
import CairnTestSupport
import CairnToolTestSupport
import Foundation
import Testing

/// An export holding every type of Firestore value, written by hand as Firestore's REST API
/// writes it, read into a store whose set declares the typed places (`format: date-time`,
/// `x-firestore`), and written out again as the same file; the same in the Node tool's form.
@Suite(.historiesVerified) struct FirestoreValueTypesTests {
    let folder = TemporaryFolder("cairn-firestore-types")

    static let set = SchemaSetFiles(
        name: "places",
        files: [
            "place.schema.json": Array(
                #"""
                {"x-cairn": {"path": "users/{uid}/places/{placeId}"}, "type": "object",
                 "properties": {
                   "visitedAt": {"type": "string", "format": "date-time"},
                   "owner": {"type": "string", "x-firestore": "reference"},
                   "photo": {"type": "string", "x-firestore": "bytes"},
                   "where": {"type": "object", "x-firestore": "geopoint", "properties": {"latitude": {"type": "number"}, "longitude": {"type": "number"}}},
                   "rating": {"type": "number"},
                   "visits": {"type": "integer"},
                   "trail": {"type": "array", "items": {"type": "object", "x-firestore": "geopoint"}},
                   "times": {"type": "array", "items": {"type": "string", "format": "date-time"}}
                 }}
                """#.utf8)
        ])

    static let name = "projects/demo-progress/databases/(default)/documents/users/u1/places/"

    /// Every type, in canonical form (as an export writes it): null, booleans, integers (the
    /// Int64 range), doubles (with a fraction, and whole ones, which Firestore writes without
    /// one), timestamps (UTC and an offset, nine digits of fraction), strings, bytes, a
    /// reference, geopoints, arrays and maps (empty ones too), nested.
    static let export = """
        {"documents": [
          {"name": "\(name)p1", "fields": {
            "nothing": {"nullValue": null},
            "open": {"booleanValue": true},
            "visits": {"integerValue": "9223372036854775807"},
            "floor": {"integerValue": "-9223372036854775808"},
            "rating": {"doubleValue": 4},
            "height": {"doubleValue": 12.5},
            "ratio": {"doubleValue": 1e-7},
            "visitedAt": {"timestampValue": "2026-11-22T08:00:00.123456789+01:00"},
            "title": {"stringValue": "Café \\"Ü\\" 🥐"},
            "photo": {"bytesValue": "AAEC/w=="},
            "owner": {"referenceValue": "projects/demo-progress/databases/(default)/documents/users/u1/profiles/p1"},
            "where": {"geoPointValue": {"latitude": 51.5, "longitude": -0.125}},
            "trail": {"arrayValue": {"values": [{"geoPointValue": {"latitude": -90, "longitude": 180}}]}},
            "times": {"arrayValue": {"values": [{"timestampValue": "0001-01-01T00:00:00Z"}, {"timestampValue": "9999-12-31T23:59:59.999Z"}]}},
            "empty": {"arrayValue": {}},
            "bare": {"mapValue": {}},
            "nested": {"mapValue": {"fields": {"list": {"arrayValue": {"values": [{"integerValue": "1"}, {"doubleValue": 2}, {"stringValue": "3"}, {"mapValue": {"fields": {"deep": {"booleanValue": false}}}}]}}}}}
          }},
          {"name": "\(name)p2", "fields": {}}
        ]}
        """

    func store(_ name: String) throws -> Store {
        try Home(root: folder.path + "/" + name).createStore("u1", schemaSet: Self.set)
    }

    @Test func everyValueTypeComesBackAsItWas() throws {
        let store = try store("a")
        let result = try store.importFirestore(Array(Self.export.utf8))
        #expect(result.documents.map(\.description) == ["users/u1/places/p1", "users/u1/places/p2"])
        #expect(result.notes.isEmpty, "every typed place is declared: \(result.notes)")
        #expect(result.database == FirestoreDatabase(project: "demo-progress"))

        // In the store: JSON, the typed values as their text (or a point's object).
        let p1 = try #require(try store.document(at: path("users/u1/places/p1")))
        #expect(p1.field("nothing") == .null && p1.field("open") == .bool(true))
        #expect(p1.field("visits") == .integer(.max) && p1.field("floor") == .integer(.min))
        #expect(p1.field("rating") == .double(4), "a whole doubleValue stays a double (4.0), so it goes out as one")
        #expect(p1.field("height") == .double(12.5) && p1.field("ratio") == .double(1e-7))
        #expect(p1.field("visitedAt") == .string("2026-11-22T08:00:00.123456789+01:00"))
        #expect(p1.field("title") == .string("Café \"Ü\" 🥐"))
        #expect(p1.field("photo") == .string("AAEC/w=="))
        #expect(p1.field("owner") == .string("users/u1/profiles/p1"))
        #expect(p1.field("where") == (try json(#"{"latitude": 51.5, "longitude": -0.125}"#)))
        #expect(p1.field("trail") == (try json(#"[{"latitude": -90, "longitude": 180}]"#)))
        #expect(p1.field("empty") == .array([]) && p1.field("bare") == .object([:]))
        #expect(p1.field("nested") == (try json(#"{"list": [1, 2.0, "3", {"deep": false}]}"#)))
        #expect(try store.document(at: path("users/u1/places/p2")) == .object([:]))

        // Out again: the same file, byte for byte once both are canonical.
        let expected = try JSONParser().parse(Self.export).canonicalBytes()
        let exported = try store.exportFirestore().bytes
        #expect(String(decoding: exported, as: UTF8.self) == String(decoding: expected, as: UTF8.self))

        // And into a second store from that file: the same documents.
        let again = try self.store("b")
        try again.importFirestore(exported)
        for id in ["p1", "p2"] {
            #expect(try again.canonicalBytes(at: path("users/u1/places/\(id)")) == store.canonicalBytes(at: path("users/u1/places/\(id)")))
        }
    }

    /// Where the schema declares nothing, a typed value is kept (and noted), and an integral
    /// double comes back a double, so its type survives the trip: the store remembers the
    /// timestamp's type for its exports; a copy without that memory (a clone) exports the text.
    @Test func undeclaredTypedValuesAreKeptNotedAndRemembered() throws {
        let store = try Home(root: folder.path + "/plain").createStore("u1")
        let export =
            #"{"documents": [{"name": "projects/p/databases/(default)/documents/users/u1/notes/n1", "fields": {"at": {"timestampValue": "2026-11-22T08:00:00Z"}, "share": {"doubleValue": 3}, "count": {"integerValue": "3"}}}]}"#
        let result = try store.importFirestore(Array(export.utf8))
        #expect(
            result.notes.map(\.description) == [
                #"users/u1/notes/n1 at /at: a timestampValue where the schema set gives a stringValue; kept, and this store remembers its type for export-firestore; declare "format": "date-time" (or "x-firestore": "timestamp") there for every copy to know it"#
            ])
        #expect(
            try store.document(at: path("users/u1/notes/n1")) == (try json(#"{"at": "2026-11-22T08:00:00Z", "count": 3, "share": 3.0}"#)))
        let out = try FirestoreExportFile(parsing: store.exportFirestore().bytes)
        #expect(
            out.documents.first?.fields == ["at": .timestamp("2026-11-22T08:00:00Z"), "share": .double(.integer(3)), "count": .integer(3)])
        #expect(out.database == FirestoreDatabase(project: "p"), "the import's database names the export's documents")
        #expect(try store.exportFirestore().bytes == (try JSONParser().parse(export).canonicalBytes()), "the file back, byte for byte")

        // Changed to what is no timestamp, it goes out as the string it now is.
        try store.put(json(#"{"at": "soon", "count": 3, "share": 3.0}"#), at: path("users/u1/notes/n1"))
        #expect(try FirestoreExportFile(parsing: store.exportFirestore().bytes).documents.first?.fields["at"] == .string("soon"))

        // Without the memory (the git folder's file gone, as in a clone), the text.
        try FileManager.default.removeItem(atPath: folder.path + "/plain/u1/.git/cairn/firestore-types.json")
        try store.put(json(#"{"at": "2026-11-22T08:00:00Z", "count": 3, "share": 3.0}"#), at: path("users/u1/notes/n1"))
        #expect(
            try FirestoreExportFile(parsing: store.exportFirestore().bytes).documents.first?.fields["at"] == .string("2026-11-22T08:00:00Z")
        )
    }

    /// The other way round: the file holds plain values where the set types the place — a
    /// string in a date-time field, a map where a point goes, a whole double where integers
    /// go, an integer where bytes go. Each comes back out as the file had it.
    @Test func plainValuesWhereTheSetTypesThePlaceComeBackPlain() throws {
        let store = try store("plain")
        let export = """
            {"documents": [{"name": "\(Self.name)p3", "fields": {
              "visitedAt": {"stringValue": "2026-11-22T08:00:00Z"},
              "where": {"mapValue": {"fields": {"latitude": {"doubleValue": 51.5}, "longitude": {"doubleValue": -0.125}}}},
              "visits": {"doubleValue": 3},
              "photo": {"stringValue": "AAEC"},
              "times": {"arrayValue": {"values": [{"timestampValue": "2026-11-22T08:00:00Z"}, {"stringValue": "2026-11-23T08:00:00Z"}]}}
            }}]}
            """
        let result = try store.importFirestore(Array(export.utf8))
        #expect(
            result.notes.map { "\($0.pointer) \($0.type) \($0.schemaType)" }.sorted() == [
                "/photo stringValue bytesValue", "/times/1 stringValue timestampValue", "/visitedAt stringValue timestampValue",
                "/visits doubleValue integerValue", "/where mapValue geoPointValue",
            ])
        #expect(try store.exportFirestore().bytes == (try JSONParser().parse(export).canonicalBytes()), "the file back, byte for byte")

        // The memory is of those values: changed, the place is what the schema says again.
        var document = try #require(try store.document(at: path("users/u1/places/p3"))?.objectValue)
        document["visitedAt"] = .string("2026-11-23T08:00:00Z")
        try store.put(.object(document), at: path("users/u1/places/p3"))
        let fields = try FirestoreExportFile(parsing: store.exportFirestore().bytes).documents.first?.fields
        #expect(fields?["visitedAt"] == .timestamp("2026-11-23T08:00:00Z"), "a new value in a date-time field")
        #expect(fields?["photo"] == .string("AAEC"), "an unchanged value as it came")
    }

    /// Through the Node tool's form, which has no bytes and writes a whole double as `4`:
    /// what that form cannot tell apart is no difference, and nothing is noted or remembered.
    @Test func theNodeFormsBlindSpotsAreNoDifference() throws {
        let first = try store("first")
        try first.importFirestore(Array(Self.export.utf8))
        let node = try first.exportFirestore(shape: .node)
        let second = try store("second")
        let result = try second.importFirestore(node.bytes)
        #expect(result.notes.isEmpty, "\(result.notes)")
        let fields = try FirestoreExportFile(parsing: second.exportFirestore(database: FirestoreDatabase(project: "demo-progress")).bytes)
            .documents.first?.fields
        #expect(fields?["photo"] == .bytes("AAEC/w=="), "the schema's bytes, not a string the memory made")
    }

    /// The Node tool's form: timestamps as seconds and nanoseconds, geopoints, references by path.
    @Test func theNodeToolsFormComesBackAsItWas() throws {
        let export = #"""
            {"__collections__": {"users": {"u1": {"__collections__": {"places": {
              "p1": {"visitedAt": {"__datatype__": "timestamp", "value": {"_seconds": 1795334400, "_nanoseconds": 120000000}},
                     "where": {"__datatype__": "geopoint", "value": {"_latitude": 51.5, "_longitude": -0.125}},
                     "owner": {"__datatype__": "documentReference", "value": "users/u1/profiles/p1"},
                     "rating": 4.5, "visits": 3, "tags": ["a", "b"], "about": {"x": null}},
              "p2": {}
            }}}}}}
            """#
        let store = try store("node")
        let result = try store.importFirestore(Array(export.utf8))
        #expect(result.shape == .node && result.database == nil && result.notes.isEmpty)
        #expect(
            result.documents.map(\.description) == ["users/u1/places/p1", "users/u1/places/p2"], "u1 holds only collections: no document")
        let p1 = try #require(try store.document(at: path("users/u1/places/p1")))
        #expect(p1.field("visitedAt") == .string("2026-11-22T08:00:00.120Z"))
        #expect(p1.field("where") == (try json(#"{"latitude": 51.5, "longitude": -0.125}"#)))
        #expect(p1.field("owner") == .string("users/u1/profiles/p1"))
        let exported = try store.exportFirestore(shape: .node).bytes
        #expect(exported == (try JSONParser().parse(export).canonicalBytes()))
        // A REST export of it needs a project, which a Node file does not name.
        let refused = #expect(throws: CairnError.self) { try store.exportFirestore() }
        #expect(refused?.remedy == .nameFirestoreProject)
    }
}
