#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CairnMerge

/// Reads a schema set from its folder (`schema/life-in-uk/`): the `*.schema.json` files and,
/// when the set has declared migrations, `migrations.json`. The set's name is the folder's.
public enum SchemaSetFolder {
    /// The set in `folder`, or nil when the folder holds no schema.
    public static func read(_ folder: String) throws(CairnError) -> SchemaSetFiles? {
        let names = FileSystem.names(in: folder).filter(SchemaSetFiles.isSetFile)
        guard names.contains(where: { $0.hasSuffix(".schema.json") }) else { return nil }
        var files: [String: [UInt8]] = [:]
        for name in names {
            guard let bytes = try FileSystem.read(folder + "/" + name) else {
                throw CairnError(.io, "cannot read \(folder)/\(name)")
            }
            files[name] = bytes
        }
        return SchemaSetFiles(name: FileSystem.lastComponent(of: folder.hasSuffix("/") ? String(folder.dropLast()) : folder), files: files)
    }
}
