import CairnMerge
import Foundation
import Testing

/// Merge cases as files, one folder each under `Golden/`: `schema.json` (the `x-merge`
/// annotations in force), `base.json`, `ours.json`, `theirs.json` (a missing file is an
/// absent document), `expected.json` and `expected-conflicts.json` (the records of what the
/// policies decided, as merge commits carry them). Each runs in both directions.
@Suite struct GoldenMergeTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// The case folders (the README beside them describes the format).
    static var cases: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { name in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }.sorted()
    }

    func load(_ name: String, _ file: String) throws -> JSONValue? {
        let url = Self.folder.appendingPathComponent(name).appendingPathComponent(file + ".json")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONParser().parse([UInt8](Data(contentsOf: url)))
    }

    @Test func thereAreCasesForEveryPolicy() {
        let names = Self.cases.joined(separator: " ")
        for policy in ["fields", "lww", "highest", "entries", "append-only", "counter", "max", "union"] {
            #expect(names.contains(policy), "a golden case for \(policy)")
        }
    }

    @Test(arguments: cases)
    func mergesAsExpectedBothWays(_ name: String) throws {
        let policy = try MergePolicy(schema: try #require(try load(name, "schema")))
        let (base, ours, theirs) = (try load(name, "base"), try load(name, "ours"), try load(name, "theirs"))
        let expected = try load(name, "expected")
        let expectedConflicts = try #require(try load(name, "expected-conflicts"), "\(name): no expected-conflicts.json")
        let forward = policy.merge(base: base, ours: ours, theirs: theirs)
        let backward = policy.merge(base: base, ours: theirs, theirs: ours)
        #expect(forward.value?.canonicalBytes() == expected?.canonicalBytes(), "\(name): \(forward.value?.canonicalText ?? "absent")")
        #expect(backward.value?.canonicalBytes() == expected?.canonicalBytes(), "\(name), the other way")
        #expect(forward.conflicts == backward.conflicts)
        // The records as merge commits write them, and as they read back.
        let conflicts = JSONValue.array(forward.conflicts.map(\.jsonValue))
        #expect(conflicts.canonicalBytes() == expectedConflicts.canonicalBytes(), "\(name): \(conflicts.canonicalText)")
        guard case .array(let records) = expectedConflicts else {
            Issue.record("\(name): expected-conflicts.json holds an array of records")
            return
        }
        #expect(records.map(ConflictRecord.init(json:)) == forward.conflicts, "\(name): the records read back")
    }
}
