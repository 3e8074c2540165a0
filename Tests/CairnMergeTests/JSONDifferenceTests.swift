import CairnMerge
import CairnTestSupport
import Testing

/// The differences failures show, one line per JSON pointer, and the subset rule of a
/// `contains` expectation.
@Suite struct JSONDifferenceTests {
    @Test func differencesArePointerLines() throws {
        let expected = try json(#"{"a":{"b":true,"c/d":1},"list":[1,2],"gone":0}"#)
        let found = try json(#"{"a":{"b":false,"c/d":1},"list":[1,3],"new":"x"}"#)
        #expect(
            JSONDifference.between(expected: expected, found: found).map(\.description) == [
                "/a/b: expected true, found false",
                "/gone: missing, expected 0",
                "/list/1: expected 2, found 3",
                #"/new: unexpected, found "x""#,
            ])
        #expect(JSONDifference.between(expected: try json(#"{"a":{"b":false}}"#), found: found, subset: true).isEmpty)
        #expect(JSONDifference.between(expected: .integer(1), found: .double(1)).map(\.description) == ["/: expected 1, found 1.0"])
        #expect(JSONDifference.between(expected: try json("[1]"), found: try json("[1,2]")).count == 1)
        // Keys are escaped as JSON pointers escape them.
        #expect(
            JSONDifference.between(expected: try json(#"{"a~b/c":1}"#), found: try json(#"{"a~b/c":2}"#)).map(\.pointer) == ["/a~0b~1c"])
    }

    @Test func aSubsetComparesArraysAsAWhole() throws {
        let found = try json(#"{"tags":[{"name":"a","added":1}],"title":"t"}"#)
        // The object names fewer keys, and the array's element holds more than the one given.
        let differences = JSONDifference.between(expected: try json(#"{"tags":[{"name":"a"}]}"#), found: found, subset: true)
        #expect(differences.map(\.description) == [#"/tags: expected [ { "name": "a" } ], found [ { "added": 1, "name": "a" } ]"#])
        #expect(JSONDifference.between(expected: try json(#"{"tags":[{"added":1,"name":"a"}]}"#), found: found, subset: true).isEmpty)
        // Without the subset rule, arrays of one length still differ element by element.
        #expect(
            JSONDifference.between(expected: try json(#"[{"name":"a"}]"#), found: try json(#"[{"name":"b"}]"#)).map(\.pointer) == [
                "/0/name"
            ])
    }

    @Test func theFirstDifferenceIsWhereTheLawCheckerPoints() throws {
        let left = try json(#"{"a":[1,{"b":2}],"z":1}"#)
        #expect(JSONDifference.between(expected: left, found: try json(#"{"a":[1,{"b":3}],"z":2}"#)).first?.pointer == "/a/1/b")
        #expect(JSONDifference.between(expected: left, found: left).isEmpty)
        #expect(JSONDifference.between(expected: nil, found: nil).isEmpty)
        #expect(JSONDifference.between(expected: left, found: nil).map(\.pointer) == [""])
    }
}
