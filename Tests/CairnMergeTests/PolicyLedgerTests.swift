@testable import CairnMerge
import Testing

/// What a generated simulation checks at its end (``PolicyLedger``), as it reads to the
/// user: each broken promise names its document and place.
@Suite struct PolicyLedgerTests {
    /// Derived fields whose names hold `/` and `~`: each wrong one is named (escaped as a
    /// JSON pointer) with the value it holds and the value computed.
    @Test func aWrongDerivedFieldIsNamedWithWhatItHoldsWhateverItsName() throws {
        let schema = #"""
            {"x-cairn": {"path": "users/{uid}/books/{bookId}"}, "type": "object",
             "properties": {
               "sections": {"type": "object", "additionalProperties": {"type": "boolean"}},
               "done/total": {"type": "integer", "x-merge": {"derive": {"count": "sections"}}},
               "a~b": {"type": "integer", "x-merge": {"derive": {"count": "sections"}}},
               "plain": {"type": "integer", "x-merge": {"derive": {"count": "sections"}}}}}
            """#
        let set = try SchemaSet(files: ["book.schema.json": Array(schema.utf8)])
        let path = try DocumentPath("users/u1/books/b1")
        let document = try JSONParser().parse(Array(#"{"sections": {"s1": true, "s2": false}, "done/total": 5, "a~b": 7, "plain": 9}"#.utf8))
        let violations = PolicyLedger(set: set).violations(in: [path: document])
        #expect(violations == [
            "users/u1/books/b1 /a~0b: derived: is 7, computed 2",
            "users/u1/books/b1 /done~1total: derived: is 5, computed 2",
            "users/u1/books/b1 /plain: derived: is 9, computed 2",
        ], "\(violations)")
        let right = try JSONParser().parse(Array(#"{"sections": {"s1": true, "s2": false}, "done/total": 2, "a~b": 2, "plain": 2}"#.utf8))
        #expect(PolicyLedger(set: set).violations(in: [path: right]).isEmpty)
    }
}
