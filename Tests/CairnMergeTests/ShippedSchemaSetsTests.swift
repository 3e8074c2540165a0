import CairnMerge
import CairnTestSupport
import Foundation
import Testing

/// Every schema set shipped in `schema/` loads, and its README names every kind's path.
@Suite struct ShippedSchemaSetsTests {
    static var sets: [String] {
        // The folders: `schema/` also holds the source of the CairnSchemaSets target.
        ((try? FileManager.default.contentsOfDirectory(atPath: shippedSchemaRoot.path)) ?? []).filter { name in
            var isFolder: ObjCBool = false
            return !name.hasPrefix(".")
                && FileManager.default.fileExists(atPath: shippedSchemaRoot.appendingPathComponent(name).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }.sorted()
    }

    @Test func theSeedAppsHaveSets() {
        #expect(Self.sets.contains("life-in-uk"))
    }

    @Test(arguments: sets)
    func loadsAndIsDocumented(_ name: String) throws {
        let folder = shippedSchemaRoot.appendingPathComponent(name)
        let files = try shippedSchemaSet(name).files
        #expect(files.keys.contains { $0.hasSuffix(".schema.json") }, "\(name) has schemas")
        let set = try SchemaSet(files: files)
        let readme = try String(contentsOf: folder.appendingPathComponent("README.md"), encoding: .utf8)
        for kind in set.kinds {
            #expect(readme.contains("`\(kind.pattern)`"), "\(name)/README.md names \(kind.pattern)")
        }
    }
}
