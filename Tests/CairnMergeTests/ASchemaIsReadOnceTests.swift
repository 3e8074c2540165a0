import Testing

@testable import CairnMerge

/// A schema is compiled once into nodes (``CompiledSchema``) that every check walks: each
/// place in it becomes one node however it is reached, and the walks that replace lookups
/// find what the lookups found, in any spelling of a key.
@Suite struct ASchemaIsReadOnceTests {
    /// References to places that overlap (the root, a property, a property's property), in
    /// several spellings each, cost no node beyond one per place: a schema cannot make its
    /// compiling grow faster than its size.
    @Test func eachPlaceIsOneNodeHoweverOftenItIsReferenced() throws {
        var levels = #"{"type": "integer"}"#
        var references: [String] = []
        var pointer = "#"
        for depth in 0..<12 {
            pointer += "/properties/p\(depth)"
            references.append(pointer)
        }
        // Innermost first: level k holds p(k), and refers to every place, in three spellings.
        for depth in (0..<12).reversed() {
            let refs = references.flatMap { reference in
                [
                    reference, reference.replacingOccurrences(of: "/p", with: "/%70"),
                    reference.replacingOccurrences(of: "properties", with: "propert%69es"),
                ]
            }
            let all = refs.map { #"{"$ref": "\#($0)"}"# }.joined(separator: ", ")
            levels = #"{"properties": {"p\#(depth)": \#(levels)}, "allOf": [\#(all)]}"#
        }
        let root = try JSONParser().parse(Array(levels.utf8))
        let compiled = CompiledSchema(root)
        // Places: 12 levels, each with 36 allOf members, the innermost integer schema, and
        // the four nodes every schema shares (true, false, {}, no schema).
        #expect(compiled.nodes.count <= 12 * (1 + 36) + 1 + 4)
    }

    /// A loop of references is one node a place, and a check along it stops at the depth limit.
    @Test func aLoopOfReferencesCompilesOnce() throws {
        let root = try JSONParser().parse(##"{"properties": {"next": {"$ref": "#"}}, "$ref": "#/properties/next"}"##)
        #expect(CompiledSchema(root).nodes.count == 2 + 4)
        #expect(Schema(root).validate(.object(JSONObject())).first?.message.contains("loops") == true)
    }

    /// A chain of references as long as a schema file can hold compiles without recursing
    /// along it, and a check along it stops at the depth limit, as before.
    @Test func aLongChainOfReferencesCompilesWithoutRecursingAlongIt() throws {
        let links = 30_000
        var definitions: [String: JSONValue] = [:]
        for index in 0..<links {
            definitions["a\(index)"] = .object(["$ref": .string("#/$defs/a\(index + 1)")])
        }
        definitions["a\(links)"] = .object(["type": .string("integer")])
        let root = JSONValue.object(["$defs": .object(JSONObject(definitions)), "$ref": .string("#/$defs/a0")])
        #expect(CompiledSchema(root).nodes.count == links + 2 + 4)
        #expect(Schema(root).validate(.integer(1)).first?.message.contains("loops") == true)
    }

    /// Schemas that hold nothing of their own (`{}`, `true`, `false`) share one node each:
    /// a schema of many of them costs no node apiece.
    @Test func emptySchemasShareANode() throws {
        let members = [JSONValue](repeating: .object(JSONObject()), count: 50_000) + [.bool(true), .bool(false)]
        let root = JSONValue.object(["anyOf": .array(members)])
        #expect(CompiledSchema(root).nodes.count == 1 + 4)
        #expect(Schema(root).accepts(.integer(1)))
    }

    /// A property and a required name are found in the spelling the instance uses, ASCII or
    /// not: the walk of sorted keys is taken only where every key has one spelling.
    @Test func propertiesAndRequiredNamesAreFoundInAnySpelling() throws {
        let decomposed = "e\u{301}"
        let precomposed = "\u{E9}"
        let schema = Schema(
            .object([
                "properties": .object([decomposed: .object(["type": .string("integer")]), "b": .object(["type": .string("integer")])]),
                "required": .array([.string(decomposed), .string("b"), .string("K")]),
            ]))
        // The instance spells é precomposed, and K as the Kelvin sign, which Swift takes as K.
        let instance = JSONValue.object([precomposed: .string("x"), "b": .integer(1), "\u{212A}": .integer(2)])
        #expect(schema.validate(instance).map(\.keyword) == ["type"])
        #expect(
            schema.validate(.object(["b": .string("y")])).map(\.description) == [
                "/: lacks the required field \"\(decomposed)\" (required at /required)",
                "/: lacks the required field \"K\" (required at /required)",
                "/b: is string, must be integer (type at /properties/b/type)",
            ])
    }

    /// With ASCII keys on both sides the walk of sorted keys finds each declared property
    /// and each missing name, at every position among undeclared ones.
    @Test func theWalkOfSortedKeysFindsWhatALookupFinds() throws {
        var generator = SplitMix(seed: 5)
        let names = (0..<12).map { "k\($0)" }
        for _ in 0..<300 {
            let declared = names.filter { _ in generator.next() % 2 == 0 }
            let required = names.filter { _ in generator.next() % 3 == 0 }
            let present = names.filter { _ in generator.next() % 2 == 0 }
            let schema = Schema(
                .object([
                    "properties": .object(
                        JSONObject(uniqueKeysWithValues: declared.map { ($0, JSONValue.object(["type": .string("string")])) })),
                    "required": .array(required.map(JSONValue.string)),
                    "additionalProperties": .object(["type": .string("integer")]),
                ]))
            let instance = JSONValue.object(JSONObject(uniqueKeysWithValues: present.map { ($0, JSONValue.integer(1)) }))
            var expected: [String] = required.filter { !present.contains($0) }.map { "required:\($0)" }
            expected += present.filter { declared.contains($0) }.sorted(by: JSONObject.precedes).map { "type:/\($0)" }
            let found = schema.validate(instance).map {
                $0.keyword == "required" ? "required:" + $0.message.split(separator: "\"")[1] : "type:" + $0.pointer
            }
            #expect(found == expected, "declared \(declared), required \(required), present \(present)")
        }
    }
}
