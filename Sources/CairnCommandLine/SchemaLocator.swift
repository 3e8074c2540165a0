import CairnCore
import CairnMerge
import CairnSchemaSets
import CairnSystem

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Finds the schema set an option names: a folder path (an argument with a `/` or a leading
/// `.`: an app's own set), or a set's name, looked up in the folders of `$CAIRN_SCHEMA_PATH`
/// (colon-separated), then `share/cairn/schema` beside the installed tool (`bin/../share`),
/// then a `schema/` folder above the tool (a checkout, where the build lives in `.build/`),
/// then among the sets shipped as package resources (``SchemaSets``).
package enum SchemaLocator {
    package static func folders() -> [String] {
        var folders = Environment.current.schemaPath
        if let executable = Syscalls.executablePath() {
            var folder = FileSystem.parent(of: executable)
            folders.append(FileSystem.parent(of: folder) + "/share/cairn/schema")
            while folder != "/" && folder != "." {
                folders.append(folder + "/schema")
                folder = FileSystem.parent(of: folder)
            }
        }
        return folders
    }

    /// The set `argument` names — a folder path or a set's name — or an error that says what
    /// is missing (for a name, with the sets there are).
    package static func set(named argument: String) throws -> SchemaSetFiles {
        if SchemaSetFolder.isPath(argument) { return try SchemaSetFolder.set(at: argument) }
        guard !argument.isEmpty else {
            throw CairnError(.invalidInput, "the schema set's name is empty; give a set's name (life-in-uk, …) or the path of its folder")
        }
        for folder in folders() {
            if let set = try SchemaSetFolder.read(folder + "/" + argument) { return set }
        }
        if let set = SchemaSets.named(argument) { return set }
        let known = Set(
            folders().flatMap { folder in
                ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { set in
                    ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + set)) ?? []).contains {
                        $0.hasSuffix(".schema.json")
                    }
                }
            } + SchemaSets.names
        ).sorted()
        let list =
            known.isEmpty
            ? "none found; set CAIRN_SCHEMA_PATH to the folder that holds the sets" : "known: " + known.joined(separator: ", ")
        throw CairnError(
            .notFound, "there is no schema set \"\(argument)\" (\(list)); or give the path of a set's folder, like ./schema/my-app")
    }
}
