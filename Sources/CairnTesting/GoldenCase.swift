import CairnCore
import CairnMerge

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A golden merge case: a folder with `schema.json` (one JSON Schema with its `x-merge`
/// annotations), `base.json`, `ours.json`, `theirs.json` (a missing file is an absent
/// document), `expected.json` (missing: the merge deletes the document) and, optionally,
/// `expected-conflicts.json` (the records, `"document": ""`). The published test vectors
/// (`Tests/CairnMergeTests/Golden/README.md`) are such folders.
///
/// A case runs four ways, each of which must give `expected` byte for byte in canonical form
/// and the records expected: the pure merge of the policy both ways round (ours as ours, then
/// as theirs), and two devices with real stores and a real remote, each way round (the device
/// that wrote `ours` pushing first, then the one that wrote `theirs`).
public struct GoldenCase: Sendable {
    /// The folder.
    public var folder: String
    /// The folder's name.
    public var name: String { Scenario.stem(of: folder.hasSuffix("/") ? String(folder.dropLast()) : folder) }

    /// The document the stores hold the case in: the schema becomes the one kind of a set
    /// with this path (any `x-cairn` of its own replaced).
    public static let documentPath = "users/u1/golden/case"
    static let pathPattern = "users/{uid}/golden/{caseId}"
    /// The sides, as files and devices.
    static let sides = ["ours", "theirs"]

    public init(folder: String) {
        self.folder = folder
    }

    /// Whether `folder` is a golden case: it holds `schema.json`.
    public static func isCase(_ folder: String) -> Bool {
        FileManager.default.fileExists(atPath: folder + "/schema.json")
    }

    /// Runs the case; throws the first way it fails, naming the file and what ran.
    public func run() throws(StoryFailure) {
        let schema = try load("schema")
        guard let schema, case .object(var fields) = schema else {
            throw StoryFailure(schema == nil ? "there is no schema.json" : "schema.json holds a JSON object", file: folder)
        }
        let (base, ours, theirs, expected) = (try load("base"), try load("ours"), try load("theirs"), try load("expected"))
        var expectedRecords: [JSONValue]?
        if let records = try load("expected-conflicts") {
            guard case .array(let list) = records, list.allSatisfy({ ConflictRecord(json: $0) != nil }) else {
                throw StoryFailure("expected-conflicts.json holds an array of conflict records", file: folder + "/expected-conflicts.json")
            }
            expectedRecords = list
        }
        let policy: MergePolicy
        do {
            policy = try MergePolicy(schema: schema)
        } catch {
            throw StoryFailure(error.description, file: folder + "/schema.json")
        }
        // The pure merge, both ways round.
        for (label, first, second) in [("ours as ours", ours, theirs), ("ours as theirs", theirs, ours)] {
            let outcome = policy.merge(base: base, ours: first, theirs: second)
            try compare(outcome.value, expected, records: outcome.conflicts, expectedRecords, what: "the policy's merge, \(label)")
        }
        // Real stores: the schema as the one kind of a set.
        fields["x-cairn"] = .object(["path": .string(Self.pathPattern)])
        let set = SchemaSetFiles(name: "golden", files: ["golden.schema.json": JSONValue.object(fields).canonicalBytes()])
        for first in Self.sides {
            try runStores(
                set: set, policy: policy, base: base, sides: ["ours": ours, "theirs": theirs], first: first,
                expected: expected, expectedRecords: expectedRecords)
        }
    }

    private func runStores(
        set: SchemaSetFiles, policy: MergePolicy, base: JSONValue?, sides: [String: JSONValue?],
        first: String, expected: JSONValue?, expectedRecords: [JSONValue]?
    ) throws(StoryFailure) {
        let what = "stores, \(first) pushing first"
        let path = Self.documentPath
        do throws(StoryFailure) {
            // No device clock: the merge depends on its three inputs only, as the pure merge.
            let story = try Story(schemaSet: set, devices: Self.sides, clock: .some(nil))
            if let base {
                do {
                    try story.run(.put(device: "ours", path: path, value: base))
                } catch {
                    throw placed(error, in: "base")
                }
                try story.run(.sync(device: "ours"))
                try story.run(.sync(device: "theirs"))
            }
            var refused = false
            for side in Self.sides {
                let step: Step
                if let value = sides[side]! {
                    step = .put(device: side, path: path, value: value)
                } else if base != nil {
                    step = .remove(device: side, path: path, recursive: false)
                } else {
                    continue
                }
                do {
                    try story.run(step)
                } catch {
                    // A device never changes or deletes an append-only document (the store
                    // and the server's hook refuse it): that side stays as the base.
                    if policy.isAppendOnly, base != nil, error.storeError?.cause is AppendOnlyRefusal {
                        refused = true
                        continue
                    }
                    throw placed(error, in: side)
                }
            }
            let second = Self.sides.first { $0 != first }!
            for device in [first, second, first] { try story.run(.sync(device: device)) }
            for device in Self.sides {
                let found = try story.document(at: path, on: device)
                let bytes = try? story.store(device).canonicalBytes(at: try Story.path(path))
                if bytes != expected?.canonicalBytes() {
                    throw StoryFailure(
                        "the document on \(device) is not expected.json",
                        differences: JSONDifference.between(expected: expected, found: found))
                }
            }
            try story.expect(.sameTree(devices: [], remote: true))
            try story.expect(.verified)
            if !refused, let expectedRecords {
                let found = (story.lastConflicts(on: second) ?? []).map { record in
                    var record = record
                    if record.document?.description == path { record.document = nil }
                    return record
                }
                let differences = Self.recordDifferences(expected: expectedRecords, found: found)
                if !differences.isEmpty {
                    throw StoryFailure(
                        "the conflict records of \(second)'s merge are not expected-conflicts.json", differences: differences)
                }
            }
        } catch var failure {
            failure.file = failure.file ?? folder
            failure.stepDescription = what + (failure.stepDescription.map { ", step \(failure.step ?? 0): \($0)" } ?? "")
            failure.step = nil
            throw failure
        }
    }

    private func compare(
        _ found: JSONValue?, _ expected: JSONValue?, records: [ConflictRecord], _ expectedRecords: [JSONValue]?,
        what: String
    ) throws(StoryFailure) {
        if found?.canonicalBytes() != expected?.canonicalBytes() {
            throw StoryFailure(
                "the merged document is not expected.json", file: folder, stepDescription: what,
                differences: JSONDifference.between(expected: expected, found: found))
        }
        if let expectedRecords {
            let differences = Self.recordDifferences(expected: expectedRecords, found: records)
            if !differences.isEmpty {
                throw StoryFailure(
                    "the conflict records are not expected-conflicts.json", file: folder, stepDescription: what,
                    differences: differences)
            }
        }
    }

    /// A step's failure for the input file `NAME.json` it wrote: a document the schema
    /// refuses is pointed at in the file, at the place the schema names.
    private func placed(_ failure: StoryFailure, in name: String) -> StoryFailure {
        var failure = failure
        failure.file = folder + "/" + name + ".json"
        failure.pointer = (failure.storeError?.cause as? SchemaRefusal)?.errors.first?.pointer
        return failure
    }

    /// Where the records found differ from `expected-conflicts.json`: the two arrays in the
    /// canonical order of records (what the merge gives, and the file must list), element
    /// by element, each difference at its pointer in the file (`/1/kept`).
    static func recordDifferences(expected: [JSONValue], found: [ConflictRecord]) -> [JSONDifference] {
        let found = found.map(\.jsonValue)
        return (0..<max(expected.count, found.count)).flatMap { index in
            JSONDifference.between(
                expected: index < expected.count ? expected[index] : nil,
                found: index < found.count ? found[index] : nil, at: "/\(index)")
        }
    }

    /// `NAME.json` of the case, parsed; nil when the file does not exist.
    private func load(_ name: String) throws(StoryFailure) -> JSONValue? {
        let file = folder + "/" + name + ".json"
        guard let bytes = FileManager.default.contents(atPath: file) else {
            if FileManager.default.fileExists(atPath: file) { throw StoryFailure("cannot read the file", file: file) }
            return nil
        }
        do {
            return try JSONParser().parse([UInt8](bytes))
        } catch {
            throw StoryFailure("not valid JSON: \(error.description)", file: file)
        }
    }
}
