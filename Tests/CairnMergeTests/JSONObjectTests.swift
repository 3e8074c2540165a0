import CairnMerge
import Testing

/// `JSONObject` keeps an object's fields sorted instead of hashed, for speed. It must behave
/// as the dictionary it replaces: these properties hold it to `[String: JSONValue]` on random
/// edits, with keys in several Unicode spellings of one key (NFC and NFD `é`, the Kelvin sign
/// and `K`), and hold its order to the canonical one (UTF-8 bytes).
struct JSONObjectTests {
    /// Keys among which Swift takes some as equal: what a dictionary does with them is the
    /// reference.
    static let keys = ["a", "b", "K", "\u{212A}", "\u{E9}", "e\u{301}", "ab", "a~b", "z", "\u{1F600}", "", "Zebra", "éa"]

    static func randomKey(_ generator: inout SplitMix) -> String {
        keys[Int(generator.next() % UInt64(keys.count))]
    }

    @Test func randomEditsLeaveTheSameFieldsAsADictionary() {
        var generator = SplitMix(seed: 41)
        for _ in 0..<2_000 {
            var object = JSONObject()
            var reference: [String: JSONValue] = [:]
            for step in 0..<Int(generator.next() % 12) {
                let key = Self.randomKey(&generator)
                switch generator.next() % 4 {
                case 0:
                    object[key] = nil
                    reference[key] = nil
                case 1:
                    #expect(object.removeValue(forKey: key) == reference.removeValue(forKey: key))
                case 2:
                    object.append(.integer(Int64(step)), forKey: key)
                    reference[key] = .integer(Int64(step))
                default:
                    #expect(
                        object.updateValue(.integer(Int64(step)), forKey: key) == reference.updateValue(.integer(Int64(step)), forKey: key))
                }
            }
            #expect(object.count == reference.count)
            for key in Self.keys {
                #expect(object[key] == reference[key], "\(key) in \(object)")
            }
            #expect(object == JSONObject(reference))
            #expect(object.dictionary == reference)
            // Canonical order, and the keys the object holds are those the dictionary holds.
            #expect(object.keys == object.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            #expect(Set(object.keys.map { Array($0.utf8) }) == Set(reference.keys.map { Array($0.utf8) }))
        }
    }

    @Test func equalObjectsHashEqually() {
        var generator = SplitMix(seed: 42)
        for _ in 0..<500 {
            var left = JSONObject()
            var right = JSONObject()
            for _ in 0..<Int(generator.next() % 6) {
                let key = Self.randomKey(&generator)
                left[key] = .bool(true)
            }
            // The same fields, set in another order.
            for (key, value) in left.reversed() { right[key] = value }
            #expect(left == right)
            #expect(left.hashValue == right.hashValue)
            #expect(JSONValue.object(left).hashValue == JSONValue.object(right).hashValue)
        }
    }

    /// `aligned` walks three objects as a merge does: each key once, in canonical order, with
    /// the value each object has for it — the dictionary's lookup.
    @Test func alignedKeysAreEachKeyOnceWithEachObjectsValue() {
        var generator = SplitMix(seed: 43)
        for _ in 0..<2_000 {
            var objects: [JSONObject] = []
            for side in 0..<3 {
                var object = JSONObject()
                for _ in 0..<Int(generator.next() % 6) {
                    object[Self.randomKey(&generator)] = .integer(Int64(side))
                }
                objects.append(object)
            }
            let aligned = JSONObject.aligned(objects[0], objects[1], objects[2])
            let keys = aligned.map(\.key)
            #expect(keys == keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
            #expect(Set(keys).count == keys.count, "no key twice, in any spelling: \(keys)")
            var every: [String: Bool] = [:]
            for object in objects { for key in object.keys { every[key] = true } }
            #expect(keys.count == every.count)
            for (key, values) in aligned {
                #expect(values.0 == objects[0][key] && values.1 == objects[1][key] && values.2 == objects[2][key])
                // Of the spellings the objects use, the first in UTF-8 order.
                let spellings = objects.compactMap { $0.storedKey(for: key) }
                #expect(spellings.allSatisfy { !$0.utf8.lexicographicallyPrecedes(key.utf8) })
            }
        }
    }

    /// The parser makes the same object from the fields in any order, and refuses a key
    /// repeated in any spelling, as it did when objects were dictionaries.
    @Test func theParserMakesOneObjectWhateverTheOrderOfItsFields() throws {
        var generator = SplitMix(seed: 44)
        for _ in 0..<1_000 {
            var fields: [(String, Int)] = []
            for index in 0..<Int(generator.next() % 7) {
                fields.append((Self.randomKey(&generator), index))
            }
            var reference: [String: JSONValue] = [:]
            var repeated = false
            for (key, value) in fields where reference.updateValue(.integer(Int64(value)), forKey: key) != nil {
                repeated = true
            }
            let text = "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
            if repeated {
                #expect(throws: JSONParseError.self) { try JSONParser().parse(text) }
            } else {
                let parsed = try JSONParser().parse(text)
                #expect(parsed == .object(JSONObject(reference)))
                #expect(try JSONParser().parse(parsed.canonicalText) == parsed)
            }
        }
    }
}
