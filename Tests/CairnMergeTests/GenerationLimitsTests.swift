import Testing

@testable import CairnMerge
@testable import CairnMergeLaws

/// An app's schema may hold any number and any pattern: the generator gives a valid
/// document or a ``GenerationError`` naming file, pointer and reason — never a trap, a hang
/// or a document its schema refuses.
@Suite struct GenerationLimitsTests {
    /// Numbers at and past the edges of what Int and Int64 hold, and odd ones.
    static let numbers: [String] = [
        "1e300", "-1e300", "1e19", "-1e19", "9223372036854775807", "-9223372036854775808", "9223372036854775806",
        "9.3e18", "1.7976931348623157e308", "5e-324", "1e-300", "0", "-1", "0.5", "2.5", "3", "1000000000", "1e15", "-7",
    ]
    /// Patterns of empty classes, surrogates, long repetitions and the plain kinds.
    static let patterns: [String] = [
        #"^[\uD800-\uDBFF]$"#, #"[\uDC00]"#, #"^\uD83D$"#, #"^[\uD800-\uDFFF]+$"#, #"^[^\x00-\x7F]{2}$"#,
        #"^[^\x20-\x7E]$"#, "^(a{1000}){1000}$", "^((ab){1000}){1000}$", "^x{1000}$", "^$", #"^[a-z]{2,4}$"#,
        #"^\d{1,3}$"#, "^.{0,1000}$", "^(a|b|c){3}$",
    ]
    static let countKeywords = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"]
    static let boundKeywords = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"]

    /// A schema of `type` with a few keywords drawn from the lists above (as text, so numbers
    /// keep the form the parser gives them).
    static func schema(using random: inout SplitMix) -> String {
        let types = ["integer", "number", "string", "array", "object"]
        let type = types.randomElement(using: &random)!
        var keywords = [#""type": "\#(type)""#]
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: keywords.append(#""\#(boundKeywords.randomElement(using: &random)!)": \#(numbers.randomElement(using: &random)!)"#)
            case 1: keywords.append(#""\#(countKeywords.randomElement(using: &random)!)": \#(numbers.randomElement(using: &random)!)"#)
            case 2:
                keywords.append(#""pattern": "\#(patterns.randomElement(using: &random)!.replacingOccurrences(of: "\\", with: "\\\\"))""#)
            default:
                let pattern = patterns.randomElement(using: &random)!.replacingOccurrences(of: "\\", with: "\\\\")
                keywords.append(
                    #""patternProperties": {"\#(pattern)": {"type": "integer", "minimum": \#(numbers.randomElement(using: &random)!)}}"#)
            }
        }
        switch type {
        case "array":
            // Items of the field's own schema: arrays in arrays, as deep as the draw goes.
            keywords.append(
                Int.random(in: 0..<4, using: &random) == 0
                    ? ##""items": {"$ref": "#/properties/v"}"##
                    : #""items": {"type": "integer", "maximum": \#(numbers.randomElement(using: &random)!)}"#)
        case "object":
            if Bool.random(using: &random) { keywords.append(#""additionalProperties": {"type": "string"}"#) }
            // A stamp for lww, and now and then a required field of the object's own schema.
            let inner = Int.random(in: 0..<4, using: &random) == 0 ? ##", "self": {"$ref": "#/properties/v"}"## : ""
            keywords.append(#""properties": {"at": {"type": "integer", "minimum": \#(numbers.randomElement(using: &random)!)}\#(inner)}"#)
            keywords.append(inner.isEmpty ? #""required": ["at"]"# : #""required": ["at", "self"]"#)
        default:
            break
        }
        return "{" + keywords.joined(separator: ", ") + "}"
    }

    /// A set of one kind whose field `v` has `schema`, merged by `policy` (JSON text).
    static func set(field schema: String, policy: String) throws -> SchemaSet? {
        let policyText = policy.isEmpty ? "" : #", "x-merge": \#(policy)"#
        let text =
            #"{"x-cairn": {"path": "users/{uid}/things/{thingId}"}, "type": "object", "required": ["v"], "properties": {"v": \#(schema.dropLast())\#(policyText)}}}"#
        return try? SchemaSet(files: ["thing.schema.json": Array(text.utf8)])
    }

    @Test func extremeBoundsAndOddPatternsGiveADocumentOrAnError() throws {
        var random = SplitMix(seed: 16)
        var documents = 0, errors = 0
        for number in 0..<400 {
            let field = Self.schema(using: &random)
            let policy = [
                "", #""counter""#, #""max""#, #""min""#, #""union""#, #"{"lww": "at"}"#, #"{"highest": "at"}"#,
                #"{"entries": "latest", "by": "at"}"#,
            ].randomElement(using: &random)!
            guard let set = try Self.set(field: field, policy: policy), let kind = set.kinds.first else { continue }
            let generator = DocumentGenerator(set: set)
            var local = SplitMix(seed: UInt64(number))
            do {
                let path = try generator.path(of: kind, using: &local)
                var document = try generator.document(of: kind, at: path, time: 3, using: &local)
                #expect(kind.validate(document, at: path).isEmpty, "\(field): \(document.canonicalText)")
                documents += 1
                for step in 4..<8 {
                    guard let edit = try generator.edit(document, of: kind, at: path, time: Int64(step), using: &local) else { break }
                    #expect(kind.validate(edit.document, at: path).isEmpty, "\(field) edited: \(edit.document.canonicalText)")
                    document = edit.document
                }
                _ = try generator.lawCase(of: kind, at: path, using: &local)
            } catch {
                #expect(error.file == "thing.schema.json" && !error.reason.isEmpty, "\(error)")
                #expect(error.pointer.isEmpty || error.pointer.hasPrefix("/"), "\(error)")
                errors += 1
            }
        }
        // Both happen: the drawn schemas are not all impossible, nor all easy.
        #expect(documents > 50 && errors > 50, "\(documents) documents, \(errors) errors")
    }

    @Test(arguments: [
        (#"{"type": "integer", "minimum": 1e300}"#, ""),
        (#"{"type": "integer", "minimum": 1e19, "x-merge": "counter"}"#, ""),
        (#"{"type": "integer", "minimum": 9223372036854775805, "x-merge": "counter"}"#, ""),
        (#"{"type": "integer", "enum": [9223372036854775807], "x-merge": "max"}"#, ""),
        (
            #"{"type": "object", "properties": {"at": {"type": "integer", "minimum": 9223372036854775806}}, "required": ["at"], "x-merge": {"lww": "at"}}"#,
            "/properties/v/properties/at"
        ),
        (##"{"type": "array", "minItems": 1, "items": {"$ref": "#/properties/v"}}"##, "/properties/v"),
        (#"{"type": "integer", "minimum": 9223372036854775807}"#, ""),
        (#"{"type": "integer", "maximum": -9223372036854775808, "x-merge": "min"}"#, ""),
        (#"{"type": "number", "exclusiveMinimum": 1.7976931348623157e308}"#, ""),
        (#"{"type": "string", "minLength": 1e300}"#, "/properties/v"),
        (#"{"type": "string", "minLength": 9223372036854775807}"#, "/properties/v"),
        (#"{"type": "string", "maxLength": 9223372036854775807, "minLength": 9223372036854775800}"#, "/properties/v"),
        (#"{"type": "array", "minItems": 1e19}"#, "/properties/v"),
        (#"{"type": "array", "minItems": 1000000000000}"#, "/properties/v"),
        (#"{"type": "array", "minItems": 9223372036854775807, "maxItems": 9223372036854775807}"#, "/properties/v"),
        (#"{"type": "object", "minProperties": 1e300, "additionalProperties": true}"#, "/properties/v"),
        (#"{"type": "string", "pattern": "^[\\uD800-\\uDBFF]$"}"#, "/properties/v/pattern"),
        (#"{"type": "string", "pattern": "^(a{1000}){1000}$"}"#, "/properties/v/pattern"),
    ])
    func anImpossibleOrHugeBoundIsAnErrorNamingItsPlace(_ field: String, _ pointer: String) throws {
        let set = try #require(try Self.set(field: field, policy: ""))
        let kind = try #require(set.kinds.first)
        let generator = DocumentGenerator(set: set)
        var random = SplitMix(seed: 1)
        let path = try generator.path(of: kind, using: &random)
        do {
            let document = try generator.document(of: kind, at: path, using: &random)
            // A bound the generator can honour gives a valid document, edits included.
            #expect(pointer.isEmpty, "\(field) gave \(document.canonicalText)")
            #expect(kind.validate(document, at: path).isEmpty)
            var current = document
            for step in 1...5 {
                guard let edit = try generator.edit(current, of: kind, at: path, time: Int64(step), using: &random) else { break }
                #expect(kind.validate(edit.document, at: path).isEmpty, "\(edit.document.canonicalText)")
                current = edit.document
            }
        } catch {
            #expect(error.file == "thing.schema.json")
            if !pointer.isEmpty { #expect(error.pointer.hasPrefix(pointer), "\(error)") }
        }
        #expect(generator.unsupported().count <= 1)
    }

    @Test func aClassOfNoCharacterIsRefusedWhenRead() throws {
        for pattern in [#"^[\uD800-\uDBFF]$"#, #"[\uDC00]"#, #"^\uD83D$"#, #"[^\x00-\uFFFF]"#] {
            do {
                _ = try PatternGenerator(pattern)
                Issue.record("\(pattern) was read")
            } catch {
                #expect(error.reason.contains("no character"), "\(pattern): \(error.reason)")
            }
        }
        // A class with surrogates and characters draws only the characters.
        let generator = try PatternGenerator(#"^[\uD800-\uDFFFa]{4}$"#)
        var random = SplitMix(seed: 2)
        #expect(generator.generate(using: &random) == "aaaa")
        #expect(throws: PatternGenerator.Unsupported.self) { try PatternGenerator("^((ab){1000}){1000}$") }
    }
}
