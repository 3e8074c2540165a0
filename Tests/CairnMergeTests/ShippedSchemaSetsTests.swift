import CairnMerge
import Foundation
import Testing

/// Every schema set shipped in `schema/` loads, and its README names every kind's path.
@Suite struct ShippedSchemaSetsTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("schema")

    static var sets: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    @Test func theSeedAppsHaveSets() {
        #expect(Self.sets.contains("life-in-uk"))
    }

    @Test(arguments: sets)
    func loadsAndIsDocumented(_ name: String) throws {
        let folder = Self.root.appendingPathComponent(name)
        var files: [String: [UInt8]] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".schema.json") {
            files[file] = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
        }
        #expect(!files.isEmpty, "\(name) has schemas")
        let set = try SchemaSet(files: files)
        let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        for kind in set.kinds {
            #expect(readme.contains("`\(kind.pattern)`"), "\(name)/README.md names \(kind.pattern)")
        }
    }
}
