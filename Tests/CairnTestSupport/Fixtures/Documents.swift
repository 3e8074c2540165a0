import CairnMerge
import Foundation

/// A JSON value from text, for tests that write documents.
package func json(_ text: String) throws -> JSONValue { try JSONParser().parse(text) }

/// A document path from text.
package func path(_ text: String) throws -> DocumentPath { try DocumentPath(text) }

/// A shipped schema set's files (`schema/<name>/*.schema.json` of the checkout), as
/// `Home.createStore` takes them.
package func shippedSchemaSet(_ name: String) throws -> (name: String, files: [String: [UInt8]]) {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("schema/\(name)")
    var files: [String: [UInt8]] = [:]
    for file in try FileManager.default.contentsOfDirectory(atPath: root.path) where file.hasSuffix(".schema.json") {
        files[file] = try [UInt8](Data(contentsOf: root.appendingPathComponent(file)))
    }
    return (name, files)
}
