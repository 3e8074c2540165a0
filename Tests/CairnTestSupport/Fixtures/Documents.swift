import CairnMerge
import Foundation

/// A JSON value from text, for tests that write documents.
package func json(_ text: String) throws -> JSONValue { try JSONParser().parse(text) }

/// A document path from text.
package func path(_ text: String) throws -> DocumentPath { try DocumentPath(text) }

/// The folder of the schema sets shipped with Cairn: `schema/` of the checkout.
package let shippedSchemaRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("schema")

/// A shipped schema set (`schema/<name>/` of the checkout) as a store takes it: its schemas
/// and, if it has one, its `migrations.json` — the files `cairn init --schema` reads.
package func shippedSchemaSet(_ name: String) throws -> SchemaSetFiles {
    let folder = shippedSchemaRoot.appendingPathComponent(name)
    var files: [String: [UInt8]] = [:]
    for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where SchemaSetFiles.isSetFile(file) {
        files[file] = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
    }
    return SchemaSetFiles(name: name, files: files)
}
