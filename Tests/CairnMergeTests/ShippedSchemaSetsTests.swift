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

    /// The files of a shipped set: its schemas and, if it has one, its `migrations.json`.
    static func files(of name: String) throws -> [String: [UInt8]] {
        let folder = root.appendingPathComponent(name)
        var files: [String: [UInt8]] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where file.hasSuffix(".schema.json") || file == SchemaMigrations.fileName {
            files[file] = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
        }
        return files
    }

    @Test(arguments: sets)
    func loadsAndIsDocumented(_ name: String) throws {
        let folder = Self.root.appendingPathComponent(name)
        let files = try Self.files(of: name)
        #expect(files.keys.contains { $0.hasSuffix(".schema.json") }, "\(name) has schemas")
        let set = try SchemaSet(files: files)
        let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        for kind in set.kinds {
            #expect(readme.contains("`\(kind.pattern)`"), "\(name)/README.md names \(kind.pattern)")
        }
    }
}
