import Testing

@testable import CairnMerge
@testable import CairnMergeLaws

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
        let document = try JSONParser().parse(
            Array(#"{"sections": {"s1": true, "s2": false}, "done/total": 5, "a~b": 7, "plain": 9}"#.utf8))
        let violations = PolicyLedger(set: set).violations(in: [path: document])
        #expect(
            violations == [
                "users/u1/books/b1 /a~0b: derived: is 7, computed 2",
                "users/u1/books/b1 /done~1total: derived: is 5, computed 2",
                "users/u1/books/b1 /plain: derived: is 9, computed 2",
            ], "\(violations)")
        let right = try JSONParser().parse(Array(#"{"sections": {"s1": true, "s2": false}, "done/total": 2, "a~b": 2, "plain": 2}"#.utf8))
        #expect(PolicyLedger(set: set).violations(in: [path: right]).isEmpty)
    }

    /// A milestone reached on two devices before either saw the other's: the merge keeps one
    /// creation, the first in canonical order (with `latest`, the greater field), and the
    /// ledger expects that one — not whichever it recorded last.
    @Test func aDocumentCreatedOnTwoDevicesApartIsExpectedAsThePolicyKeepsIt() throws {
        let plain = #"{"x-cairn": {"path": "users/{uid}/marks/{id}"}, "type": "object", "x-merge": "append-only"}"#
        let latest = #"{"x-cairn": {"path": "users/{uid}/answers/{id}"}, "type": "object", "x-merge": {"append-only": {"latest": "at"}}}"#
        let set = try SchemaSet(files: ["mark.schema.json": Array(plain.utf8), "answer.schema.json": Array(latest.utf8)])
        let mark = try DocumentPath("users/u1/marks/m1")
        let answer = try DocumentPath("users/u1/answers/a1")
        let (phone, laptop): (JSONValue, JSONValue) = (
            .object(["by": .string("phone"), "at": .integer(9)]),
            .object(["by": .string("laptop"), "at": .integer(3)])
        )
        for order in [[phone, laptop], [laptop, phone]] {
            var ledger = PolicyLedger(set: set)
            for created in order {
                ledger.recordWrite(at: mark, before: nil, after: created)
                ledger.recordWrite(at: answer, before: nil, after: created)
            }
            // Canonical order puts the laptop's first; the later `at` is the phone's.
            #expect(ledger.violations(in: [mark: laptop, answer: phone]).isEmpty)
            #expect(ledger.violations(in: [mark: phone, answer: laptop]).count == 2)
        }
    }
}
