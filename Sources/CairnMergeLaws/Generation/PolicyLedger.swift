import CairnMerge

/// What devices wrote, value by value, and what each policy promises of the documents once
/// every device has merged everything: the invariants a generated simulation checks.
///
/// | policy | promise |
/// | --- | --- |
/// | append-only | every document as it was created, byte for byte; one created on several devices apart, the creation the policy keeps (the first in canonical order, or with `latest`, the greatest field) |
/// | counter | the sum of every increment on every device (a creation counts from 0) |
/// | max, min | the greatest, smallest value written |
/// | union | every element added |
/// | entries latest by F | each entry as written with the greatest F |
/// | lww(F), highest(F, then G) | the object (less the fields with policies of their own) as written with the greatest stamp |
/// | derived, counted | as computed from the final documents |
///
/// Every final document is also checked against its schema. A document once deleted is left
/// out of the value promises (a change on another device brings it back, by design), but
/// not of the schema and derived-field checks.
public struct PolicyLedger: Sendable {
    /// One recorded promise about a value.
    enum Promise: Sendable {
        case created(JSONValue)
        case counter(Int64)
        case extreme(JSONValue, max: Bool)
        case union([JSONValue])
        /// The value written with the greatest stamp, and that stamp (primary, secondary).
        case latest(JSONValue, stamp: JSONValue?, then: JSONValue?)
    }

    struct Place: Hashable, Sendable, Comparable {
        var path: DocumentPath
        var tokens: [String]

        var pointer: String { tokens.map { "/" + MergePolicy.escape($0) }.joined() }

        static func < (left: Place, right: Place) -> Bool {
            left.path != right.path
                ? left.path < right.path
                : left.pointer.utf8.lexicographicallyPrecedes(right.pointer.utf8)
        }
    }

    public let set: SchemaSet
    var promises: [Place: Promise] = [:]
    /// Documents deleted at some point.
    var deleted: Set<DocumentPath> = []

    public init(set: SchemaSet) {
        self.set = set
    }

    /// How many values the ledger holds promises about, by policy word (`counter`, `max`, …).
    public var tally: [String: Int] {
        var tally: [String: Int] = [:]
        for promise in promises.values {
            let word =
                switch promise {
                case .created: "append-only"
                case .counter: "counter"
                case .extreme(_, let max): max ? "max" : "min"
                case .union: "union"
                case .latest: "latest"
                }
            tally[word, default: 0] += 1
        }
        return tally
    }

    /// Records that a device wrote `after` at `path`, where its document was `before`.
    public mutating func recordWrite(at path: DocumentPath, before: JSONValue?, after: JSONValue) {
        guard let kind = set.kind(of: path) else { return }
        record(kind.policy, before: before, after: after, at: Place(path: path, tokens: []), kind: kind)
    }

    /// Records that a device deleted the document at `path` (and those below it).
    public mutating func recordDelete(_ path: DocumentPath) {
        deleted.insert(path)
    }

    private mutating func record(
        _ policy: MergePolicy, before: JSONValue?, after: JSONValue?, at place: Place,
        kind: SchemaSet.Kind
    ) {
        let top = place.tokens.isEmpty
        switch policy {
        case .appendOnly, .appendOnlyLatest:
            guard before == nil, let after else { return }
            // Created on another device too, before either saw the other's: one is kept.
            if case .created(let kept)? = promises[place], !Self.keeps(after, over: kept, policy: policy) { return }
            promises[place] = .created(after)
        case .counter:
            guard case .integer(let count)? = after else { return }
            let previous: Int64 = if case .integer(let value)? = before { value } else { 0 }
            let sum: Int64 = if case .counter(let sum)? = promises[place] { sum } else { 0 }
            // Wrapping: the sum is right whenever the true one fits in 64 bits; one that does
            // not is a promise the merge cannot keep, and the check says so.
            promises[place] = .counter(sum &+ count &- previous)
        case .max, .min:
            guard let after else { return }
            if case .extreme(let kept, _)? = promises[place], JSONValue.stampOrder(kept, after) == (policy == .max ? 1 : -1) { return }
            promises[place] = .extreme(after, max: policy == .max)
        case .union:
            guard case .array(let elements)? = after else { return }
            var all: [JSONValue] = if case .union(let known)? = promises[place] { known } else { [] }
            for element in elements where !all.contains(where: { JSONValue.same($0, element) }) { all.append(element) }
            promises[place] = .union(all)
        case .entriesLatest(let by):
            let entries = after?.objectValue ?? [:]
            for key in JSONValue.sortedKeys(entries) {
                let entry = entries[key]!
                remember(entry, stamp: entry.field(by), then: nil, at: Place(path: place.path, tokens: place.tokens + [key]))
            }
        case .lww(let field, let children, _), .highest(let field, _, let children):
            guard case .object(var fields)? = after else { return }
            for key in children.keys.sorted() {
                record(
                    children[key]!, before: before?.field(key), after: fields[key],
                    at: Place(path: place.path, tokens: place.tokens + [key]), kind: kind)
                fields[key] = nil
            }
            if top { for name in kind.computedFields { fields[name] = nil } }
            var then: JSONValue?
            if case .highest(_, let second?, _) = policy { then = fields[second] }
            remember(.object(fields), stamp: fields[field], then: then, at: place)
        case .fields(let children, let others):
            guard policy != .plain, case .object(let fields)? = after else { return }
            for (key, values) in JSONObject.aligned(before?.objectValue ?? [:], fields, [:]) {
                guard let child = children[key] ?? others, !(top && kind.computedFields.contains(key)) else { continue }
                record(child, before: values.0, after: values.1, at: Place(path: place.path, tokens: place.tokens + [key]), kind: kind)
            }
        }
    }

    /// Whether an append-only policy keeps `value` over `kept` when both were created apart:
    /// with `latest`, the greater field; else (and on a tie) the first in canonical order.
    static func keeps(_ value: JSONValue, over kept: JSONValue, policy: MergePolicy) -> Bool {
        if case .appendOnlyLatest(let field) = policy {
            let order = JSONValue.stampOrder(value.field(field), kept.field(field))
            if order != 0 { return order > 0 }
        }
        return JSONValue.canonicalOrder(value, kept) < 0
    }

    /// Keeps `value` at `place` when its stamp is greater than the one kept (ties: as the
    /// merge breaks them, by content).
    private mutating func remember(_ value: JSONValue, stamp: JSONValue?, then: JSONValue?, at place: Place) {
        if case .latest(let kept, let keptStamp, let keptThen)? = promises[place] {
            var order = JSONValue.stampOrder(stamp, keptStamp)
            if order == 0 { order = JSONValue.stampOrder(then, keptThen) }
            if order == 0 { order = JSONValue.canonicalOrder(value, kept) }
            guard order > 0 else { return }
        }
        promises[place] = .latest(value, stamp: stamp, then: then)
    }

    /// The promises `documents` (every document of the final tree) break, one line each:
    /// `users/u1/books/b1 /sections/s2: entries latest: is …, written last as …`; then the
    /// documents that break their schema or whose derived fields are not as computed.
    public func violations(in documents: [DocumentPath: JSONValue]) -> [String] {
        var found: [String] = []
        func text(_ value: JSONValue?) -> String { value?.inlineText ?? "(absent)" }
        for (place, promise) in promises.sorted(by: { $0.key < $1.key }) {
            if deleted.contains(where: { $0.contains(place.path) }) { continue }
            let document = documents[place.path]
            let value = document?.value(at: place.tokens)
            let name = "\(place.path) \(place.pointer.isEmpty ? "/" : place.pointer)"
            switch promise {
            case .created(let written):
                if value.map({ $0.canonicalBytes() != written.canonicalBytes() }) ?? true {
                    found.append("\(name): append-only: is \(text(value)), created as \(text(written))")
                }
            case .counter(let sum):
                if value != .integer(sum) {
                    found.append("\(name): counter: is \(text(value)), the increments add up to \(sum)")
                }
            case .extreme(let written, let max):
                if !JSONValue.same(value, written) {
                    found.append(
                        "\(name): \(max ? "max" : "min"): is \(text(value)), the \(max ? "greatest" : "smallest") written is \(text(written))"
                    )
                }
            case .union(let added):
                let elements = value?.arrayValue ?? []
                let missing = added.filter { element in !elements.contains { JSONValue.same($0, element) } }
                if !missing.isEmpty {
                    found.append("\(name): union: \(text(value)) lacks \(missing.map(\.inlineText).joined(separator: ", "))")
                }
            case .latest(let written, _, _):
                var current = value
                if case .object(var fields)? = value, let kind = set.kind(of: place.path) {
                    // The fields with policies of their own have promises of their own.
                    for key in policy(at: place, kind: kind).children.keys { fields[key] = nil }
                    if place.tokens.isEmpty { for key in kind.computedFields { fields[key] = nil } }
                    current = .object(fields)
                }
                if !JSONValue.same(current, written) {
                    found.append("\(name): latest stamp: is \(text(current)), written last as \(text(written))")
                }
            }
        }
        for (path, document) in documents.sorted(by: { $0.key < $1.key }) {
            guard let kind = set.kind(of: path) else { continue }
            for error in kind.validate(document, at: path) { found.append("\(path): invalid: \(error)") }
            let mismatches = kind.derivedMismatches(of: document, at: path) { count in
                documents.filter { count.contains($0.key, below: path) }.sorted { $0.key < $1.key }.map(\.value)
            }
            for mismatch in mismatches {
                found.append(
                    "\(path) /\(MergePolicy.escape(mismatch.field)): derived: is \(text(mismatch.found)), computed \(text(mismatch.expected))"
                )
            }
        }
        return found
    }

    /// The policy of the value at `place`.
    func policy(at place: Place, kind: SchemaSet.Kind) -> MergePolicy {
        var policy = kind.policy
        for token in place.tokens {
            switch policy {
            case .entriesLatest(let by): policy = .lww(by, children: [:])
            default: policy = policy.children[token] ?? policy.entryPolicy ?? .plain
            }
        }
        return policy
    }
}
