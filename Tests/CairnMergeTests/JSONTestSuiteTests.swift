import CairnMerge
import Foundation
import Testing

/// JSONTestSuite (`test_parsing`): every `y_` case parses, every `n_` case is refused, and
/// the `i_` cases go either way without crashing — and whatever parses comes back the same
/// through its canonical form.
@Suite struct JSONTestSuiteTests {
    /// The `y_` cases Cairn refuses on purpose: a document may not repeat a key (the JSON
    /// grammar allows it, but which value wins is unspecified, and a store never guesses).
    static let refusedByDesign: [String: String] = [
        "y_object_duplicated_key.json": "duplicate key",
        "y_object_duplicated_key_and_value.json": "duplicate key",
    ]

    @Test func theSuiteIsThere() throws {
        let cases = try TestSuites.jsonParsingCases()
        #expect(cases.filter { $0.lastPathComponent.hasPrefix("y_") }.count >= 90)
        #expect(cases.filter { $0.lastPathComponent.hasPrefix("n_") }.count >= 180)
    }

    @Test func acceptsEveryYCase() throws {
        for file in try TestSuites.jsonParsingCases() where file.lastPathComponent.hasPrefix("y_") {
            let bytes = try [UInt8](Data(contentsOf: file))
            if let reason = Self.refusedByDesign[file.lastPathComponent] {
                #expect(throws: JSONParseError.self, "\(file.lastPathComponent) is refused: \(reason)") {
                    try JSONParser().parse(bytes)
                }
                continue
            }
            let value = try #require(try? JSONParser().parse(bytes), "\(file.lastPathComponent) must parse")
            let again = try JSONParser().parse(value.canonicalBytes())
            #expect(again.canonicalBytes() == value.canonicalBytes(), "\(file.lastPathComponent) round-trips")
        }
    }

    @Test func refusesEveryNCase() throws {
        for file in try TestSuites.jsonParsingCases() where file.lastPathComponent.hasPrefix("n_") {
            let bytes = try [UInt8](Data(contentsOf: file))
            #expect(throws: JSONParseError.self, "\(file.lastPathComponent) must be refused") {
                try JSONParser().parse(bytes)
            }
        }
    }

    @Test func decidesEveryICaseWithoutCrashing() throws {
        var accepted = 0
        var refused = 0
        for file in try TestSuites.jsonParsingCases() where file.lastPathComponent.hasPrefix("i_") {
            let bytes = try [UInt8](Data(contentsOf: file))
            do {
                let value = try JSONParser().parse(bytes)
                #expect(try JSONParser().parse(value.canonicalBytes()) == value)
                accepted += 1
            } catch {
                #expect(!error.reason.isEmpty)
                refused += 1
            }
        }
        #expect(accepted + refused >= 30)
    }
}
