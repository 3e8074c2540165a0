import CairnMerge
import Testing

@Suite struct JSONParserTests {
    func refusal(_ text: String, limits: JSONLimits = .documents) -> JSONParseError? {
        do {
            _ = try JSONParser(limits: limits).parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func keepsIntegersAsIntegersOverTheWholeInt64Range() throws {
        #expect(try JSONParser().parse("9223372036854775807") == .integer(.max))
        #expect(try JSONParser().parse("-9223372036854775808") == .integer(.min))
        #expect(try JSONParser().parse("1730000000000") == .integer(1_730_000_000_000))
        #expect(try JSONParser().parse("1.0") == .double(1))
        #expect(try JSONParser().parse("2e3") == .double(2000))
    }

    @Test func refusesIntegersBeyondInt64() throws {
        let error = try #require(refusal("9223372036854775808"))
        #expect(error.reason.contains("64-bit"))
    }

    @Test func refusesDuplicateKeysNamingTheKey() throws {
        let error = try #require(refusal(#"{"score": 1, "score": 2}"#))
        #expect(error.reason.contains("duplicate key \"score\""))
        #expect(error.line == 1 && error.column == 14)
    }

    @Test func aNestedDuplicateKeyIsFoundWhereItIs() throws {
        let text = "{\"a\": {\"x\": 1,\n  \"y\": [1, {\"k\": \"v\"}], \"z\": {},\n   \"x\": 3}, \"b\": 2}"
        let error = try #require(refusal(text))
        #expect(error.reason.contains("duplicate key \"x\""))
        #expect(error.line == 3 && error.column == 4, "\(error.line):\(error.column)")
        let spelled = try #require(refusal("{\"n\": 1, \"\u{E9}\": 1,\n \"e\u{301}\": 2}"))
        #expect(spelled.line == 2 && spelled.column == 2, "\(spelled.line):\(spelled.column)")
    }

    @Test func refusesNaNInfinityAndOverflow() {
        #expect(refusal("[NaN]") != nil)
        #expect(refusal("[Infinity]") != nil)
        #expect(refusal("[-Infinity]")?.reason == "NaN and Infinity are not JSON numbers")
        #expect(refusal("[1e400]")?.reason.contains("too large") == true)
    }

    @Test func refusesInvalidUTF8AndAByteOrderMark() throws {
        let invalid: [UInt8] = Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: JSONParseError.self) { try JSONParser().parse(invalid) }
        let overlong: [UInt8] = [0x22, 0xC0, 0xAF, 0x22]
        #expect(throws: JSONParseError.self) { try JSONParser().parse(overlong) }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("{}".utf8)
        #expect(throws: JSONParseError.self) { try JSONParser().parse(bom) }
    }

    @Test func refusesLoneSurrogatesButJoinsPairs() throws {
        #expect(refusal(#"["\uD800"]"#)?.reason.contains("lone surrogate") == true)
        #expect(refusal(#"["\uDC00x"]"#) != nil)
        #expect(try JSONParser().parse(#""\uD834\uDD1E""#) == .string("𝄞"))
    }

    @Test func refusesNestingDeeperThanTheLimit() throws {
        let limits = JSONLimits(maxBytes: 1 << 20, maxDepth: 128)
        let ok = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
        #expect(throws: Never.self) { try JSONParser(limits: limits).parse(ok) }
        let deep = String(repeating: "[", count: 129) + String(repeating: "]", count: 129)
        #expect(refusal(deep, limits: limits)?.reason.contains("deeper than 128") == true)
        // Ten thousand levels are refused, not a stack overflow.
        let hostile = String(repeating: "[", count: 10_000)
        #expect(refusal(hostile) != nil)
    }

    @Test func refusesInputOverOneMebibyte() throws {
        let big = "[\"" + String(repeating: "x", count: 1 << 20) + "\"]"
        #expect(refusal(big)?.reason.contains("limit is 1048576 bytes") == true)
    }

    @Test func saysWhereTheErrorIs() throws {
        let error = try #require(refusal("{\n  \"a\": 1,\n  \"b\" 2\n}"))
        #expect(error.line == 3)
        #expect(error.description.hasPrefix("invalid JSON at line 3, column 7"))
    }
}
