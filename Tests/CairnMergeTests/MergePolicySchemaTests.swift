import CairnMerge
import Testing

@Suite struct MergePolicySchemaTests {
    func policy(_ text: String) throws -> MergePolicy {
        try MergePolicy(schema: try JSONParser().parse(text))
    }

    @Test func readsEveryAnnotation() throws {
        #expect(try policy("{}") == .plain)
        #expect(try policy(#"{"x-merge":"fields"}"#) == .plain)
        #expect(try policy(#"{"x-merge":{"lww":"clientUpdatedAt"}}"#) == .lww("clientUpdatedAt", children: [:]))
        #expect(
            try policy(#"{"x-merge":{"highest":"version","then":"updatedAt"}}"#) == .highest("version", then: "updatedAt", children: [:]))
        #expect(try policy(#"{"x-merge":{"entries":"latest","by":"updatedAt"}}"#) == .entriesLatest(by: "updatedAt"))
        #expect(try policy(#"{"x-merge":{"append-only":{"latest":"answered_at"}}}"#) == .appendOnlyLatest(by: "answered_at"))
        for name in ["append-only", "counter", "max", "min", "union"] {
            #expect(try policy(#"{"x-merge":"\#(name)"}"#).name.rawValue == name)
        }
        let nested = try policy(
            #"{"properties":{"a":{"x-merge":"counter"},"b":{"type":"string"},"m":{"additionalProperties":{"x-merge":"max"}}}}"#)
        #expect(nested == .fields(["a": .counter, "m": .fields([:], others: .max)], others: nil))
    }

    @Test func refusesWhatItCannotRead() throws {
        for text in [
            #"{"x-merge":"newest"}"#, #"{"x-merge":{"lww":1}}"#, #"{"x-merge":{"highest":"v","by":"t"}}"#,
            #"{"x-merge":"counter","properties":{"a":{"x-merge":"max"}}}"#, #"{"x-merge":7}"#,
        ] {
            do {
                _ = try policy(text)
                Issue.record("\(text) was accepted")
            } catch let error as PolicyError {
                #expect(error.description.hasPrefix("x-merge at /x-merge: "), "\(error)")
            }
        }
        do {
            _ = try policy(#"{"properties":{"score":{"x-merge":"biggest"}}}"#)
            Issue.record("accepted")
        } catch let error as PolicyError {
            #expect(error.pointer == "/properties/score/x-merge")
        }
    }
}
