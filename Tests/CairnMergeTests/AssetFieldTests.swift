import CairnMerge
import Testing

/// Asset fields as a schema declares them (`x-cairn.assets`), the values they hold, and the
/// Git LFS pointers made of those values.
@Suite struct AssetFieldTests {
    static func set(_ annotation: String, properties: String = #"{"photo":{"type":["object","null"]}}"#) throws -> SchemaSet {
        try SchemaSet(files: [
            "note.schema.json": Array(
                #"{"x-cairn":{"path":"users/{uid}/notes/{id}","assets":\#(annotation)},"type":"object","properties":\#(properties)}"#.utf8)
        ])
    }

    @Test func aSetDeclaresItsAssetFieldsAndTheirLimits() throws {
        let kind = try #require(try Self.set(#"{"photo":{"maxBytes":5000}}"#).kinds.first)
        #expect(kind.assets == ["photo": AssetField(name: "photo", maxBytes: 5000)])
        #expect(try Self.set(#"{"photo":{}}"#).hasAssets)
        // schema show says so, in text and JSON.
        let set = try Self.set(#"{"photo":{"maxBytes":5000}}"#)
        #expect(set.description(named: "notes").contains("  assets: photo (at most 5000 bytes)\n"))
        guard case .array(let kinds)? = set.jsonDescription(named: "notes").field("kinds") else {
            Issue.record("no kinds")
            return
        }
        #expect(kinds.first?.field("assets") == JSONValue.object(["photo": .object(["maxBytes": .integer(5000)])]))
    }

    @Test(arguments: [
        (#"{"photo":{"maxBytes":0}}"#, "x-cairn.assets.photo.maxBytes is a whole number of bytes, 1 or more"),
        (#"{"video":{}}"#, "x-cairn.assets names video, which the schema's properties do not declare"),
        (#"{"photo":{"limit":3}}"#, "x-cairn.assets.photo.limit is not read by Cairn"),
        (#"["photo"]"#, AssetField.form),
    ])
    func aBadDeclarationIsRefusedSayingWhatItShouldBe(annotation: String, message: String) throws {
        #expect {
            try Self.set(annotation)
        } throws: { error in
            (error as? SchemaSetError)?.reason.contains(message) == true
        }
        let finding = SchemaSetCheck(files: [
            "note.schema.json": Array(
                #"{"x-cairn":{"path":"users/{uid}/notes/{id}","assets":\#(annotation)},"type":"object","properties":{"photo":{}}}"#.utf8)
        ]).findings
        #expect(finding.contains { $0.message.contains(message) }, "\(finding)")
    }

    @Test func aFieldNameThatCannotBeAFileNameIsRefused() throws {
        #expect(throws: SchemaSetError.self) {
            try Self.set(#"{"a/b":{}}"#, properties: #"{"a/b":{}}"#)
        }
    }

    @Test func aReferenceMakesGitLFSsPointerAndReadsBackFromIt() throws {
        let oid = "4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393"
        let reference = AssetReference(oid: oid, size: 12345, mediaType: "audio/mp4")
        #expect(
            String(decoding: reference.pointerBytes, as: UTF8.self)
                == "version https://git-lfs.github.com/spec/v1\noid sha256:\(oid)\nsize 12345\n")
        #expect(AssetReference(pointer: reference.pointerBytes) == AssetReference(oid: oid, size: 12345))
        #expect(AssetReference(reference.json) == reference)
        #expect(AssetReference(pointer: Array("version https://git-lfs.github.com/spec/v1\noid sha256:ABC\nsize 1\n".utf8)) == nil)
        #expect(AssetReference(.object(["oid": .string(oid), "size": .integer(-1)])) == nil)
        #expect(AssetReference(.object(["oid": .string(oid), "size": .integer(1), "extra": .null])) == nil)
    }

    @Test func clearingAnAssetIsTheOnlyChangeItTellsApart() throws {
        let kind = try #require(try Self.set(#"{"photo":{}}"#).kinds.first)
        let photo = AssetReference(oid: String(repeating: "0", count: 64), size: 1).json
        let with: JSONValue = .object(["text": .string("a"), "photo": photo])
        #expect(kind.onlyClearsAssets(from: with, to: .object(["text": .string("a"), "photo": .null])))
        #expect(kind.onlyClearsAssets(from: with, to: .object(["text": .string("a")])))
        #expect(!kind.onlyClearsAssets(from: with, to: .object(["text": .string("b"), "photo": .null])))
        #expect(!kind.onlyClearsAssets(from: with, to: with))
        #expect(!kind.onlyClearsAssets(from: .object(["text": .string("a")]), to: with))
    }
}

/// Two devices attach different files to one asset field: whichever file is larger and
/// whichever oid sorts first, the merge keeps one reference whole and says so in one record
/// of policy `asset` at the field — never a record per part of the reference.
@Suite struct TwoAttachmentsMakeOneAssetDecisionTests {
    static let path = try! DocumentPath("users/u1/notes/n1")

    static func reference(_ digit: Character, size: Int64, type: String? = nil) -> JSONValue {
        AssetReference(oid: String(repeating: digit, count: 64), size: size, mediaType: type).json
    }

    @Test(arguments: [
        // The larger file has the greater oid (both parts of the reference favour one side).
        (reference("b", size: 9_000), reference("a", size: 100)),
        // The larger file has the smaller oid (each part favours another side).
        (reference("a", size: 9_000), reference("b", size: 100)),
        // Same size, other oids and media types.
        (reference("c", size: 500, type: "image/png"), reference("d", size: 500, type: "image/jpeg")),
    ])
    func oneRecordAtTheFieldKeepsOneReferenceWhole(_ phone: JSONValue, _ laptop: JSONValue) throws {
        let set = try AssetFieldTests.set(#"{"photo":{}}"#)
        let base: JSONValue = .object(["text": .string("heron"), "photo": .null])
        func side(_ photo: JSONValue) -> JSONValue { .object(["text": .string("heron"), "photo": photo]) }
        for (ours, theirs) in [(side(phone), side(laptop)), (side(laptop), side(phone))] {
            let outcome = set.merge(Self.path, base: base, ours: ours, theirs: theirs)
            let kept = try #require(outcome.value?.field("photo"))
            #expect(kept == phone || kept == laptop, "the kept reference is one side's, whole: \(kept)")
            #expect(outcome.conflicts.map(\.pointer) == ["/photo"], "\(outcome.conflicts)")
            #expect(outcome.conflicts.first?.policy == .asset, "\(outcome.conflicts)")
            #expect(outcome.conflicts.first?.kept == kept)
            #expect(outcome.conflicts.first?.replaced == (kept == phone ? laptop : phone))
        }
    }
}
