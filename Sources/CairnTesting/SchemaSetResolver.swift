import CairnCore
import CairnMerge
import CairnSchemaSets
import Foundation

/// How a scenario's `schema` becomes a set: given the reference (a name, or a folder path)
/// and the scenario file's path. The tool resolves names as its `--schema` does; the
/// library's own, ``besideFile``, looks beside the file.
public struct SchemaSetResolver: Sendable {
    /// The set for `reference`, named in the scenario at `file`.
    public var set: @Sendable (_ reference: String, _ file: String) throws -> SchemaSetFiles

    public init(_ set: @escaping @Sendable (_ reference: String, _ file: String) throws -> SchemaSetFiles) {
        self.set = set
    }

    /// Whether a reference is a folder path rather than a set's name: it contains a `/` or
    /// starts with `.`.
    public static func isPath(_ reference: String) -> Bool {
        reference.contains("/") || reference.hasPrefix(".")
    }

    /// A folder path relative to the scenario file's folder (or absolute); a name as the
    /// folder `schema/<name>` in the file's folder or the nearest folder above it that has
    /// one (a checkout's `schema/`), else the set Cairn ships under that name
    /// (``SchemaSets``).
    public static let besideFile = SchemaSetResolver { reference, file in
        let folder = folderOf(file)
        if isPath(reference) {
            return try read(reference.hasPrefix("/") ? reference : folder + "/" + reference, named: reference)
        }
        guard !reference.isEmpty else { throw CairnError(.invalidInput, "the schema set's name is empty") }
        var above = folder
        while true {
            if let set = try SchemaSetFolder.read(above + "/schema/" + reference) { return set }
            let parent = folderOf(above)
            if parent == above { break }
            above = parent
        }
        if let set = SchemaSets.named(reference) { return set }
        throw CairnError(.notFound, "there is no schema set \"\(reference)\" in a schema/ folder beside \(file) or above it, nor shipped with Cairn; name the set's folder instead (\"./schema/\(reference)\")")
    }

    /// The set in `folder`, or an error naming it.
    public static func read(_ folder: String, named reference: String) throws -> SchemaSetFiles {
        guard let set = try SchemaSetFolder.read(folder) else {
            throw CairnError(.notFound, "\(reference) holds no *.schema.json files")
        }
        return set
    }

    /// The absolute folder of `file`.
    static func folderOf(_ file: String) -> String {
        let absolute = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
        guard let slash = absolute.lastIndex(of: "/") else { return "." }
        return slash == absolute.startIndex ? "/" : String(absolute[..<slash])
    }
}
