import CairnMerge
import CairnTestSupport
import Foundation
import Testing

/// What `cairn diff` and `cairn log -p` print of a document: one line per JSON pointer whose
/// value changed, from the value before to the value after.
@Suite struct JSONChangeTests {
    @Test func eachChangedValueIsOneLineFromBeforeToAfter() throws {
        let before = try json(
            #"{"sections":{"s1":{"completed":false,"updatedAt":1},"s2":{"completed":true}},"answers":[1,2],"tags":["a","b","c"],"score":1,"gone":"x"}"#
        )
        let after = try json(
            #"{"sections":{"s1":{"completed":true,"updatedAt":2},"s3":{"completed":true}},"answers":[1,2,{"q":3}],"tags":["a"],"score":1.0,"new":null}"#
        )
        #expect(
            JSONChange.between(before, after).map(\.description) == [
                "/answers/2: absent → { \"q\": 3 }",
                "/gone: \"x\" → absent",
                "/new: absent → null",
                "/score: 1 → 1.0",
                "/sections/s1/completed: false → true",
                "/sections/s1/updatedAt: 1 → 2",
                "/sections/s2: { \"completed\": true } → absent",
                "/sections/s3: absent → { \"completed\": true }",
                "/tags/1: \"b\" → absent",
                "/tags/2: \"c\" → absent",
            ])
        #expect(JSONChange.between(before, before).isEmpty)
        #expect(JSONChange.between(nil, nil).isEmpty)
        #expect(JSONChange.between(nil, after).map(\.pointer) == [""])
        #expect(JSONChange.between(try json(#"{"a":[1]}"#), try json(#"{"a":{"0":1}}"#)).map(\.pointer) == ["/a"])
    }

    /// Keys are told apart by their bytes, as canonical JSON writes them: "é" and "e" with a
    /// combining accent are two keys, which Swift's `==` would take for one.
    @Test func keysAreComparedAsBytesAndEscapedAsPointers() throws {
        let composed = "\u{E9}", decomposed = "e\u{301}"
        let before = JSONValue.object([composed: .integer(1), "a/b~c": .integer(1)])
        let after = JSONValue.object([decomposed: .integer(1), "a/b~c": .integer(2)])
        let changes = JSONChange.between(before, after)
        #expect(
            changes.map(\.pointer) == ["/a~1b~0c", "/" + composed, "/" + decomposed].sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(changes.count == 3)
        #expect(changes.first { $0.pointer.utf8.elementsEqual(("/" + composed).utf8) }?.after == nil)
        #expect(changes.first { $0.pointer.utf8.elementsEqual(("/" + decomposed).utf8) }?.before == nil)
    }

    /// On random documents and random edits of them: the changes, applied to the value
    /// before, give the value after, byte for byte; and each change's `before` is what the old
    /// value held at its pointer.
    @Test func theChangesAppliedToTheOldValueGiveTheNewOne() {
        var random = SplitMix(seed: 2026)
        for round in 0..<3_000 {
            let before = Self.value(depth: 3, &random)
            let after = Self.edited(before, depth: 3, &random)
            let changes = JSONChange.between(before, after)
            #expect(changes.isEmpty == JSONValue.same(before, after), "round \(round)")
            for change in changes {
                #expect(JSONValue.same(Self.value(in: before, at: change.pointer), change.before), "round \(round): \(change)")
            }
            var applied: JSONValue? = before
            // Values set in order (an array grows index by index), then values removed from
            // the last (an array shrinks from its end).
            for change in changes where change.after != nil {
                applied = Self.setting(applied, Self.steps(change.pointer), to: change.after)
            }
            for change in changes.reversed() where change.after == nil {
                applied = Self.setting(applied, Self.steps(change.pointer), to: nil)
            }
            #expect(JSONValue.same(applied, after), "round \(round): \(changes)")
        }
    }

    // MARK: Random values and a reference reader and writer of JSON pointers

    /// Keys to build objects from: escaped ones and one beyond ASCII (an object never holds
    /// two keys Swift would take for one, as the decomposed "é" and the composed one).
    static let keys = ["a", "b", "s1", "a/b", "~x", "\u{E9}"]

    static func value(depth: Int, _ random: inout SplitMix) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 8 : 5), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .integer(Int64.random(in: -3...3, using: &random))
        case 3: return .double(Double(Int.random(in: -3...3, using: &random)) / 2)
        case 4: return .string(keys.randomElement(using: &random)!)
        case 5, 6:
            var fields: [String: JSONValue] = [:]
            for key in keys where Int.random(in: 0..<3, using: &random) == 0 { fields[key] = value(depth: depth - 1, &random) }
            return .object(JSONObject(uniqueKeysWithValues: fields.map { ($0.key, $0.value) }))
        default:
            return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in value(depth: depth - 1, &random) })
        }
    }

    static func edited(_ value: JSONValue, depth: Int, _ random: inout SplitMix) -> JSONValue {
        switch value {
        case .object(let fields) where Int.random(in: 0..<4, using: &random) > 0:
            var pairs: [(String, JSONValue)] = []
            for key in keys {
                let old = fields[key]
                switch (old, Int.random(in: 0..<4, using: &random)) {
                case (let old?, 0): pairs.append((key, edited(old, depth: depth - 1, &random)))
                case (.some, 1): continue
                case (nil, 1): pairs.append((key, Self.value(depth: depth - 1, &random)))
                case (let old?, _): pairs.append((key, old))
                case (nil, _): continue
                }
            }
            return .object(JSONObject(uniqueKeysWithValues: pairs))
        case .array(var elements) where Int.random(in: 0..<4, using: &random) > 0:
            for index in elements.indices where Int.random(in: 0..<3, using: &random) == 0 {
                elements[index] = edited(elements[index], depth: depth - 1, &random)
            }
            switch Int.random(in: 0..<3, using: &random) {
            case 0: elements += (0..<Int.random(in: 1...2, using: &random)).map { _ in Self.value(depth: depth - 1, &random) }
            case 1: elements.removeLast(min(elements.count, Int.random(in: 1...2, using: &random)))
            default: break
            }
            return .array(elements)
        default:
            return Int.random(in: 0..<2, using: &random) == 0 ? value : Self.value(depth: depth, &random)
        }
    }

    /// The pointer's reference tokens, unescaped (RFC 6901).
    static func steps(_ pointer: String) -> [String] {
        pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    static func value(in root: JSONValue?, at pointer: String) -> JSONValue? {
        var current = root
        for step in steps(pointer) {
            switch current {
            case .object(let fields)?: current = fields.first { $0.key.utf8.elementsEqual(step.utf8) }?.value
            case .array(let elements)?: current = Int(step).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
            default: return nil
            }
        }
        return current
    }

    static func setting(_ root: JSONValue?, _ steps: [String], to new: JSONValue?) -> JSONValue? {
        guard let step = steps.first else { return new }
        switch root {
        case .object(let fields)?:
            var pairs = fields.map { ($0.key, $0.value) }
            let index = pairs.firstIndex { $0.0.utf8.elementsEqual(step.utf8) }
            let inner = setting(index.map { pairs[$0].1 }, Array(steps.dropFirst()), to: new)
            switch (index, inner) {
            case (let index?, let inner?): pairs[index].1 = inner
            case (let index?, nil): pairs.remove(at: index)
            case (nil, let inner?): pairs.append((step, inner))
            case (nil, nil): break
            }
            return .object(JSONObject(uniqueKeysWithValues: pairs))
        case .array(var elements)?:
            let index = Int(step)!
            let inner = setting(index < elements.count ? elements[index] : nil, Array(steps.dropFirst()), to: new)
            if let inner {
                if index < elements.count { elements[index] = inner } else { elements.append(inner) }
            } else {
                elements.remove(at: index)
            }
            return .array(elements)
        default:
            return root
        }
    }
}
