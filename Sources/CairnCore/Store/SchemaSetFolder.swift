import CairnMerge
import CairnSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a schema set from its folder (`schema/life-in-uk/`): the `*.schema.json` files and,
/// when the set has declared migrations, `migrations.json`. The set's name is the folder's.
public enum SchemaSetFolder {
    /// Whether `reference` — what a `--schema` option or a scenario's `schema` says — is the
    /// path of a set's folder rather than a set's name: it contains a `/` or starts with `.`.
    public static func isPath(_ reference: String) -> Bool {
        reference.contains("/") || reference.hasPrefix(".")
    }

    /// The set in the folder `path` — relative to `base` (the current folder when nil) unless
    /// it starts with `/` — named after the folder's last component once `.` and `..` are
    /// resolved (so `.` inside `my-app/` is the set `my-app`); an error naming `path` as given
    /// when there is no such folder, or when it holds no schema.
    public static func set(at path: String, relativeTo base: String? = nil) throws(CairnError) -> SchemaSetFiles {
        let folder = absolute(path, relativeTo: base)
        // A link to a folder is a folder here: a set may be linked into place.
        guard case .success(let status) = Syscalls.status(of: folder, followingLinks: true), status.kind == .folder else {
            throw CairnError(
                .notFound,
                "there is no folder \(path); a schema set is given by its name (life-in-uk, …) or as the path of a folder of *.schema.json files"
            )
        }
        guard let set = try read(folder) else {
            throw CairnError(
                .invalidInput, "\(path) holds no *.schema.json file; a schema set is a folder of JSON Schemas, one per kind of document")
        }
        return set
    }

    /// The set in `folder`, or nil when the folder holds no schema (or does not exist).
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

    /// `path` from the root — relative to `base` (the current folder when nil) unless it
    /// starts with `/` — without `.` and `..` components.
    public static func absolute(_ path: String, relativeTo base: String? = nil) -> String {
        let root = base.map { absolute($0) } ?? FileManager.default.currentDirectoryPath
        let full = path.hasPrefix("/") ? path : root + "/" + path
        var components: [Substring] = []
        for component in full.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}
