#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import CairnCore
import CairnMerge
import CairnSchemaSets

#if canImport(Glibc)
import Glibc
#endif

/// Finds the schema set an option names: a folder path (an argument with a `/` or a leading
/// `.`: an app's own set), or a set's name, looked up in the folders of `$CAIRN_SCHEMA_PATH`
/// (colon-separated), then `share/cairn/schema` beside the installed tool (`bin/../share`),
/// then a `schema/` folder above the tool (a checkout, where the build lives in `.build/`),
/// then among the sets shipped as package resources (``SchemaSets``).
enum SchemaLocator {
    /// The running tool's own path (`/proc/self/exe`).
    static func executable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func folders() -> [String] {
        var folders = Environment.current.schemaPath
        if let executable = executable() {
            var folder = parent(executable)
            folders.append(parent(folder) + "/share/cairn/schema")
            while folder != "/" && !folder.isEmpty {
                folders.append(folder + "/schema")
                folder = parent(folder)
            }
        }
        return folders
    }

    /// Whether an argument names a set by its folder rather than by its name.
    static func isPath(_ argument: String) -> Bool {
        argument.contains("/") || argument.hasPrefix(".")
    }

    /// The set `argument` names — a folder path or a set's name — or an error that says what
    /// is missing (for a name, with the sets there are).
    static func set(named argument: String) throws -> SchemaSetFiles {
        if isPath(argument) { return try set(at: argument) }
        guard !argument.isEmpty else {
            throw CairnError(.invalidInput, "the schema set's name is empty; give a set's name (life-in-uk, …) or the path of its folder")
        }
        for folder in folders() {
            if let set = try SchemaSetFolder.read(folder + "/" + argument) { return set }
        }
        if let set = SchemaSets.named(argument) { return set }
        let known = Set(folders().flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { set in
                ((try? FileManager.default.contentsOfDirectory(atPath: folder + "/" + set)) ?? []).contains { $0.hasSuffix(".schema.json") }
            }
        } + SchemaSets.names).sorted()
        let list = known.isEmpty ? "none found; set CAIRN_SCHEMA_PATH to the folder that holds the sets" : "known: " + known.joined(separator: ", ")
        throw CairnError(.notFound, "there is no schema set \"\(argument)\" (\(list)); or give the path of a set's folder, like ./schema/my-app")
    }

    /// The set in the folder `path`, named after the folder's last component (`.` and `..`
    /// resolved first, so `--schema .` inside `my-app/` is the set `my-app`).
    static func set(at path: String) throws -> SchemaSetFiles {
        let folder = absolute(path)
        // A link to a folder is a folder here: a set may be linked into place.
        guard case .success(let status) = Syscalls.status(of: folder, followingLinks: true), status.kind == .folder else {
            throw CairnError(.notFound, "there is no folder \(path); a schema set is given by its name (life-in-uk, …) or as the path of a folder of *.schema.json files")
        }
        guard let set = try SchemaSetFolder.read(folder) else {
            throw CairnError(.invalidInput, "\(path) holds no *.schema.json file; a schema set is a folder of JSON Schemas, one per kind of document")
        }
        return set
    }

    /// `path` from the root, without `.` and `..` components.
    static func absolute(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
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

    private static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
