import CairnMerge

/// The JSON parser on arbitrary bytes.
///
/// Whatever it accepts is valid UTF-8 without a byte-order mark, holds only finite numbers,
/// and writes as canonical text that parses back to the same value and writes as the same
/// bytes again. Tighter limits never accept what the default limits refuse, and give the same
/// value when they accept.
public enum JSONFuzzing {
    public static func run(_ input: [UInt8]) {
        let parsed = try? JSONParser().parse(input)
        let small = try? JSONParser(limits: JSONLimits(maxBytes: 256, maxDepth: 4)).parse(input)
        if let small {
            Invariant.require(
                parsed.map { JSONValue.same($0, small) } ?? false,
                "tighter limits accepted what the default limits did not, or read it differently")
        }
        guard let value = parsed else { return }
        Invariant.require(String(validating: input, as: UTF8.self) != nil, "accepted bytes that are not UTF-8")
        Invariant.require(!input.starts(with: [0xEF, 0xBB, 0xBF]), "accepted a byte-order mark")
        Invariant.require(allNumbersFinite(value), "accepted a number that is not finite")
        let canonical = value.canonicalBytes()
        Invariant.require(canonical.last == 0x0A, "canonical text without a final newline")
        let generous = JSONParser(limits: JSONLimits(maxBytes: Int.max, maxDepth: 1_000))
        guard let again = try? generous.parse(canonical) else {
            Invariant.require(false, "canonical text does not parse: \(String(decoding: canonical, as: UTF8.self))")
            return
        }
        Invariant.require(JSONValue.same(value, again), "canonical text parses to another value")
        Invariant.require(again.canonicalBytes() == canonical, "canonical text is not a fixed point")
        Invariant.require(JSONValue.canonicalOrder(value, again) == 0, "a value is not equal to itself in canonical order")
    }

    static func allNumbersFinite(_ value: JSONValue) -> Bool {
        switch value {
        case .double(let double): double.isFinite
        case .array(let elements): elements.allSatisfy(allNumbersFinite)
        case .object(let fields): fields.values.allSatisfy(allNumbersFinite)
        default: true
        }
    }
}
