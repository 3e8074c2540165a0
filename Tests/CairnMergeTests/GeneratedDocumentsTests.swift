import CairnTestSupport
import Foundation
import Testing

@testable import CairnMerge
@testable import CairnMergeLaws

/// Documents generated from a set's JSON Schemas are valid documents of their kind, at paths
/// of that kind, and edits change them the way their policies expect.
@Suite struct GeneratedDocumentsTests {
    static func set(_ name: String) throws -> SchemaSet {
        try SchemaSet(files: shippedSchemaSet(name).files)
    }

    @Test(arguments: ShippedSchemaSetsTests.sets)
    func everyKindOfEveryShippedSetGeneratesValidDocumentsAndEdits(_ name: String) throws {
        let set = try Self.set(name)
        let generator = DocumentGenerator(set: set)
        #expect(generator.unsupported().isEmpty, "\(name): \(generator.unsupported())")
        for seed: UInt64 in 0..<60 {
            var random = SplitMix(seed: seed)
            for kind in set.kinds {
                let path = try generator.path(of: kind, fresh: seed % 2 == 0, using: &random)
                #expect(set.kind(of: path)?.file == kind.file, "\(path) is a path of \(kind.pattern)")
                #expect(path.segments[1] == "u1")
                var document = try generator.document(of: kind, at: path, time: Int64(seed), using: &random)
                #expect(
                    set.validate(document, at: path).isEmpty, "\(path): \(set.validate(document, at: path)) in \(document.canonicalText)")
                #expect(JSONValue.same(set.filled(document, at: path), document), "derived fields of \(path) computed")
                for step in 1...4 {
                    let edit = try generator.edit(document, of: kind, at: path, time: Int64(seed) * 10 + Int64(step), using: &random)
                    guard let edit else {
                        #expect(kind.policy.isAppendOnly, "\(path) of \(name) can be edited")
                        break
                    }
                    #expect(set.validate(edit.document, at: path).isEmpty, "edit of \(path): \(set.validate(edit.document, at: path))")
                    #expect(!JSONValue.same(edit.document, document) && !edit.changes.isEmpty)
                    Self.expectMonotone(kind.policy, before: document, after: edit.document, at: "\(path)")
                    document = edit.document
                }
            }
        }
    }

    /// What an edit may do to each value, by its policy: counters and max values never go
    /// down, min values never up, unions never lose an element, entries and lww stamps never
    /// go back.
    static func expectMonotone(_ policy: MergePolicy, before: JSONValue?, after: JSONValue?, at place: String) {
        guard let before else { return }
        switch policy {
        case .counter:
            #expect((after?.number ?? 0) > (before.number ?? 0) || JSONValue.same(before, after), "\(place): a counter only goes up")
        case .max:
            #expect(JSONValue.stampOrder(after, before) >= 0, "\(place): max only rises")
        case .min:
            #expect(JSONValue.stampOrder(after, before) <= 0, "\(place): min only falls")
        case .union:
            let elements = after?.arrayValue ?? []
            #expect(
                (before.arrayValue ?? []).allSatisfy { element in elements.contains { JSONValue.same($0, element) } },
                "\(place): a union only grows")
        case .entriesLatest(let by):
            for (key, entry) in before.objectValue ?? [:] {
                let changed = after?.field(key)
                #expect(changed != nil, "\(place)/\(key): entries are never removed")
                if let changed, !JSONValue.same(changed, entry) {
                    #expect(
                        JSONValue.stampOrder(changed.field(by), entry.field(by)) > 0, "\(place)/\(key): a rewritten entry has a later \(by)"
                    )
                }
            }
        case .lww(let field, let children, _):
            if !JSONValue.same(before, after) {
                #expect(
                    JSONValue.stampOrder(after?.field(field), before.field(field)) > 0,
                    "\(place): a changed lww object has a later \(field)")
            }
            for (key, child) in children {
                expectMonotone(child, before: before.field(key), after: after?.field(key), at: place + "/" + key)
            }
        case .highest(let field, let then, let children):
            if !JSONValue.same(before, after) {
                var order = JSONValue.stampOrder(after?.field(field), before.field(field))
                if order == 0, let then { order = JSONValue.stampOrder(after?.field(then), before.field(then)) }
                #expect(order > 0, "\(place): a changed highest object has a greater version")
            }
            for (key, child) in children {
                expectMonotone(child, before: before.field(key), after: after?.field(key), at: place + "/" + key)
            }
        case .fields(let children, let others):
            for key in Set((before.objectValue ?? [:]).keys).union((after?.objectValue ?? [:]).keys).sorted() {
                guard let child = children[key] ?? others else { continue }
                expectMonotone(child, before: before.field(key), after: after?.field(key), at: place + "/" + key)
            }
        case .appendOnly, .appendOnlyLatest:
            Issue.record("\(place): an append-only document was edited")
        }
    }

    @Test func theSameSeedGivesTheSameDocuments() throws {
        let set = try Self.set("oybc")
        let generator = DocumentGenerator(set: set)
        func draw() throws -> [JSONValue] {
            var random = SplitMix(seed: 42)
            return try set.kinds.map { kind in
                try generator.document(of: kind, at: generator.path(of: kind, using: &random), using: &random)
            }
        }
        #expect(try draw().map { $0.canonicalBytes() } == draw().map { $0.canonicalBytes() })
    }

    @Test func patternsOfIDsAndCodesAreGenerated() throws {
        let cases = [
            #"^\+[1-9][0-9]{6,14}$"#, #"^[A-Z]{2}-\d{3}(-[a-f0-9]+)?$"#, #"^(red|green|blue)\.[^/\s]{1,4}$"#, "x*y+z?",
            #"^\w+@[a-z.]{2,}$"#,
        ]
        for pattern in cases {
            let generator = try PatternGenerator(pattern)
            let regex = try Regex(pattern)
            var random = SplitMix(seed: 7)
            for _ in 0..<200 {
                let text = generator.generate(using: &random)
                #expect(text.contains(regex), "\(text) matches \(pattern)")
            }
        }
    }

    @Test func aPatternItCannotGenerateIsReportedNotGuessed() throws {
        for (pattern, reason) in [("^(?=a)b$", "lookaround"), (#"(a)\1"#, "back-references"), (#"\bword"#, "word boundaries")] {
            #expect(throws: PatternGenerator.Unsupported.self, "\(pattern)") { try PatternGenerator(pattern) }
            do { _ = try PatternGenerator(pattern) } catch {
                #expect(error.reason.contains(reason) || reason == "lookaround", "\(error.reason)")
            }
        }
        let schema = Array(
            #"{"x-cairn": {"path": "users/{uid}/codes/{codeId}"}, "type": "object", "required": ["code"], "properties": {"code": {"type": "string", "pattern": "^(?!x)[a-z]+$"}}}"#
                .utf8)
        let set = try SchemaSet(files: ["code.schema.json": schema])
        let errors = DocumentGenerator(set: set).unsupported()
        #expect(errors.count == 1)
        #expect(
            errors.first?.description.hasPrefix(
                "code.schema.json: /properties/code/pattern: the pattern ^(?!x)[a-z]+$ cannot be generated from") == true, "\(errors)")
    }

    /// A map's entry is drawn from the schema of the pattern its key matches — also when the
    /// map has `additionalProperties` beside its patterns, or several patterns.
    @Test func anEntryIsDrawnFromTheSchemaOfTheKeyItHas() throws {
        let schema = #"""
            {"x-cairn": {"path": "users/{uid}/notes/{noteId}"}, "type": "object", "required": ["free", "coded"],
             "properties": {
               "free": {"type": "object", "additionalProperties": {"type": "string"}, "patternProperties": {"^n[0-9]$": {"type": "integer"}}},
               "coded": {"type": "object", "additionalProperties": false,
                         "patternProperties": {"^b[0-9]$": {"type": "boolean"}, "^a[0-9]$": {"type": "integer"}, "^c[0-9]$": {"type": "null"}}}}}
            """#
        let set = try SchemaSet(files: ["note.schema.json": Array(schema.utf8)])
        let kind = try #require(set.kinds.first)
        let generator = DocumentGenerator(set: set)
        let path = try DocumentPath("users/u1/notes/n1")
        var keys = Set<String>()
        for seed: UInt64 in 0..<40 {
            var random = SplitMix(seed: seed)
            // Empty maps: the only edit adds an entry.
            for start in [#"{"free": {}, "coded": {}}"#, #"{"free": {"n1": 1, "x": "y"}, "coded": {"a1": 2, "b2": true, "c3": null}}"#] {
                let document = try JSONParser().parse(Array(start.utf8))
                let edit = try #require(
                    try generator.edit(document, of: kind, at: path, time: 5, using: &random),
                    "seed \(seed): an entry can be added to \(start)")
                #expect(set.validate(edit.document, at: path).isEmpty, "\(edit.document.canonicalText)")
                for map in ["free", "coded"] {
                    keys.formUnion(edit.document.field(map)?.objectValue?.keys.map { map + "/" + $0.prefix(1) } ?? [])
                }
            }
            let drawn = try generator.document(of: kind, at: path, using: &random)
            for map in ["free", "coded"] { keys.formUnion(drawn.field(map)?.objectValue?.keys.map { map + "/" + $0.prefix(1) } ?? []) }
        }
        #expect(keys.isSuperset(of: ["coded/a", "coded/b", "coded/c", "free/n"]), "\(keys.sorted())")
        #expect(keys.contains { $0.hasPrefix("free/") && $0 != "free/n" }, "\(keys.sorted())")
    }

    @Test func idsFollowTheirSchemaAndTheIDRules() throws {
        let set = try Self.set("remi")
        let generator = DocumentGenerator(set: set)
        let habits = try #require(set.kinds.first { $0.pattern.description.hasSuffix("habits/{habitId}") })
        var random = SplitMix(seed: 3)
        for _ in 0..<100 {
            let path = try generator.path(of: habits, fresh: true, using: &random)
            let phone = path.segments[3]
            #expect(phone.contains(try Regex(#"^\+[1-9][0-9]{6,14}$"#)), "\(phone)")
            #expect(habits.validate(try generator.document(of: habits, at: path, using: &random), at: path).isEmpty)
        }
    }
}
