import CairnMerge
import CairnTestSupport
import CairnTesting
import Testing

/// The diffs failures show, and JSON merge patches (RFC 7386) as scenario steps apply them.
@Suite struct JSONDifferenceTests {
    @Test func differencesArePointerLines() throws {
        let expected = try json(#"{"a":{"b":true,"c/d":1},"list":[1,2],"gone":0}"#)
        let found = try json(#"{"a":{"b":false,"c/d":1},"list":[1,3],"new":"x"}"#)
        #expect(JSONDifference.between(expected: expected, found: found).map(\.description) == [
            "/a/b: expected true, found false",
            "/gone: missing, expected 0",
            "/list/1: expected 2, found 3",
            #"/new: unexpected, found "x""#,
        ])
        #expect(JSONDifference.between(expected: try json(#"{"a":{"b":false}}"#), found: found, subset: true).isEmpty)
        #expect(JSONDifference.between(expected: .integer(1), found: .double(1)).map(\.description) == ["/: expected 1, found 1.0"])
        #expect(JSONDifference.between(expected: try json("[1]"), found: try json("[1,2]")).count == 1)
    }

    @Test func mergePatchesFollowRFC7386() throws {
        // The examples of RFC 7386's appendix A.
        let cases: [(String, String, String)] = [
            (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
            (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
            (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
            (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
            (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
            (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
            (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
            (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
            (#"{"e":null}"#, #"{"a":1}"#, #"{"e":null,"a":1}"#),
            (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
            (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
        ]
        for (target, patch, result) in cases {
            #expect(try json(target).applyingMergePatch(try json(patch)) == (try json(result)), "\(target) + \(patch)")
        }
    }
}
