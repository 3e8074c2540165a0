import CairnCore
import CairnMerge
import CairnSchemaSets

/// How a scenario's `schema` becomes a set, given the reference and the scenario file's path.
/// A folder path (``SchemaSetFolder/isPath(_:)``: it contains a `/` or starts with `.`) is
/// always read relative to the scenario file's folder (or from the root); resolvers differ
/// only in where they look for a set's name. The library's own, ``besideFile``, looks beside
/// the file; the tool's, `cairn test`, looks where its `--schema` looks.
public struct SchemaSetResolver: Sendable {
    /// The set for `reference`, named in the scenario at `file`.
    public var set: @Sendable (_ reference: String, _ file: String) throws -> SchemaSetFiles

    public init(_ set: @escaping @Sendable (_ reference: String, _ file: String) throws -> SchemaSetFiles) {
        self.set = set
    }

    /// Folder paths relative to the scenario file; a set's name given to `named`, with the
    /// scenario file's path.
    public static func folderPaths(names named: @escaping @Sendable (_ name: String, _ file: String) throws -> SchemaSetFiles)
        -> SchemaSetResolver
    {
        SchemaSetResolver { reference, file in
            if SchemaSetFolder.isPath(reference) {
                return try SchemaSetFolder.set(at: reference, relativeTo: folder(of: file))
            }
            return try named(reference, file)
        }
    }

    /// Folder paths relative to the scenario file; a name as the folder `schema/<name>` in the
    /// file's folder or the nearest folder above it that has one (an app's checkout), else
    /// the set Cairn ships under that name (``SchemaSets``).
    public static let besideFile = folderPaths { name, file in
        guard !name.isEmpty else { throw CairnError(.invalidInput, "the schema set's name is empty") }
        var above = folder(of: file)
        while true {
            if let set = try SchemaSetFolder.read(above + "/schema/" + name) { return set }
            let parent = FileSystem.parent(of: above)
            if parent == above { break }
            above = parent
        }
        if let set = SchemaSets.named(name) { return set }
        throw CairnError(
            .notFound,
            "there is no schema set \"\(name)\" in a schema/ folder beside \(file) or above it, nor shipped with Cairn; name the set's folder instead (\"./schema/\(name)\")"
        )
    }

    /// The folder of `file`, from the root.
    static func folder(of file: String) -> String {
        FileSystem.parent(of: SchemaSetFolder.absolute(file))
    }
}
