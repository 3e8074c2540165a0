import CairnMerge
import CairnTestSupport
import Testing

@Suite struct CanonicalJSONTests {
    @Test func sortsKeysIndentsAndEndsWithANewline() throws {
        let value = try JSONParser().parse(#"{"b":[1,{"d":null,"c":true}],"a":"x","e":{},"f":[]}"#)
        #expect(
            value.canonicalText == """
                {
                  "a": "x",
                  "b": [
                    1,
                    {
                      "c": true,
                      "d": null
                    }
                  ],
                  "e": {},
                  "f": []
                }

                """)
    }

    @Test func theSameDocumentIsAlwaysTheSameBytes() throws {
        let first = try JSONParser().parse(#"{"z": 1, "a": {"y": [1.5, "é"], "b": false}}"#)
        let second = try JSONParser().parse("{ \"a\" : { \"b\" : false , \"y\" : [ 1.5 , \"\\u00e9\" ] } , \"z\" : 1 }")
        #expect(first.canonicalBytes() == second.canonicalBytes())
    }

    @Test func sortsKeysByTheirUTF8Bytes() throws {
        let value = try JSONParser().parse(#"{"é": 1, "z": 2, "Z": 3, "a": 4, "😀": 5}"#)
        let keys = value.canonicalText.split(separator: "\n").dropFirst().dropLast().map { $0.split(separator: "\"")[1] }
        #expect(keys == ["Z", "a", "z", "é", "😀"])
    }

    @Test func escapesOnlyWhatJSONRequires() throws {
        let value = JSONValue.string("quote \" backslash \\ tab \t nul \u{0} del \u{7F} é 😀 \u{2028}")
        #expect(value.canonicalText == "\"quote \\\" backslash \\\\ tab \\t nul \\u0000 del \u{7F} é 😀 \u{2028}\"\n")
    }

    @Test func writesDoublesInTheirShortestRoundTripForm() throws {
        let cases: [(Double, String)] = [
            (0.1, "0.1"), (100, "100.0"), (1e22, "1e22"), (1.5e-7, "1.5e-7"),
            (-0.0, "-0.0"), (Double.leastNonzeroMagnitude, "5e-324"), (1.7976931348623157e308, "1.7976931348623157e308"),
        ]
        for (double, text) in cases {
            #expect(JSONValue.double(double).canonicalText == text + "\n")
        }
    }

    @Test func randomDoublesAndIntegersRoundTripExactly() throws {
        var generator = SplitMix(seed: 42)
        for _ in 0..<5_000 {
            let bits = generator.next()
            let double = Double(bitPattern: bits)
            guard double.isFinite else { continue }
            let parsed = try JSONParser().parse(JSONValue.double(double).canonicalBytes())
            guard case .double(let back) = parsed else {
                Issue.record("\(double) did not come back as a double")
                return
            }
            #expect(back.bitPattern == double.bitPattern)
            let integer = Int64(bitPattern: generator.next())
            #expect(try JSONParser().parse(JSONValue.integer(integer).canonicalBytes()) == .integer(integer))
        }
    }

    /// Integers are written digit by digit, without a string: the same bytes as Swift's own
    /// `String(integer)`, at the edges and for random values of every magnitude.
    @Test func integersAreWrittenAsSwiftWritesThem() {
        var generator = SplitMix(seed: 19)
        var integers: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, .max, .min, .max - 1, .min + 1]
        for _ in 0..<20_000 {
            let bits = generator.next()
            integers.append(Int64(bitPattern: bits) >> Int64(bits % 64))
        }
        for integer in integers {
            #expect(JSONValue.integer(integer).canonicalBytes() == Array(String(integer).utf8) + [0x0A], "\(integer)")
        }
    }

    @Test func canonicalFormIsAFixedPoint() throws {
        var generator = SplitMix(seed: 7)
        for _ in 0..<500 {
            let value = RandomJSON.value(&generator, depth: 4)
            let once = value.canonicalBytes()
            let twice = try JSONParser().parse(once).canonicalBytes()
            #expect(once == twice)
        }
    }

    /// `same` compares values without writing them; it must agree with comparing their
    /// canonical bytes, including where Swift's own equality would not.
    @Test func sameAgreesWithCanonicalBytes() {
        let pairs: [(JSONValue, JSONValue)] = [
            (.string("é"), .string("e\u{301}")),
            (.object(["é": .integer(1)]), .object(["e\u{301}": .integer(1)])),
            (.double(0.0), .double(-0.0)),
            (.integer(1), .double(1.0)),
            (.array([.null]), .array([.null, .null])),
        ]
        for (left, right) in pairs {
            #expect(!JSONValue.same(left, right), "\(left) and \(right)")
            #expect(JSONValue.same(left, left))
        }
        var generator = SplitMix(seed: 77)
        for _ in 0..<5_000 {
            let left = MergeSamples.value(&generator, depth: 3)
            let right = MergeSamples.value(&generator, depth: 3)
            #expect(JSONValue.same(left, right) == (left.canonicalBytes() == right.canonicalBytes()))
            #expect(JSONValue.same(left, left))
        }
        #expect(JSONValue.same(nil, nil))
        #expect(!JSONValue.same(nil, .null))
    }
}

/// Random JSON values for fixed-point checks.
enum RandomJSON {
    static let alphabet: [String] = ["a", "b", "Z", "é", "\"", "\\", "\n", "😀", " ", "\u{1}", "x"]

    static func string(_ generator: inout SplitMix) -> String {
        (0..<Int.random(in: 0...6, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }.joined()
    }

    static func value(_ generator: inout SplitMix, depth: Int) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 7 : 5), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &generator))
        case 3: return .double(Double.random(in: -1e6...1e6, using: &generator))
        case 4: return .string(string(&generator))
        case 5: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in value(&generator, depth: depth - 1) })
        default:
            var fields: JSONObject = [:]
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                fields[string(&generator)] = value(&generator, depth: depth - 1)
            }
            return .object(fields)
        }
    }
}
